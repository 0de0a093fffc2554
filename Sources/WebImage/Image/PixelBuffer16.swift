/// A rectangle of 16-bit RGBA samples with straight (not premultiplied) alpha, rows contiguous and top-down: the
/// high-bit-depth companion of ``PixelBuffer``.
///
/// Decoders make one only when ``DecodingOptions/keepsHighBitDepth`` asks for it and the source has more than 8 bits
/// per sample; it travels beside the 8-bit pixels in ``ImageFrame/deepPixels``. Copies share the samples
/// (copy-on-write).
public struct PixelBuffer16: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The samples: `height` rows of `width * 4` values, each pixel R, G, B, A, 0–65535.
    public let samples: [UInt16]

    /// Samples in one row: `width * 4`.
    public var samplesPerRow: Int { width * 4 }

    /// The size in pixels.
    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// Wraps `samples`, which must hold exactly `width * height * 4` values.
    public init(width: Int, height: Int, samples: [UInt16]) {
        precondition(width > 0 && height > 0, "a pixel buffer needs a positive size")
        precondition(samples.count == width * height * 4, "\(samples.count) samples for \(width)x\(height) RGBA")
        self.width = width
        self.height = height
        self.samples = samples
    }

    /// Allocates a buffer once and lets `fill` write every sample of it.
    ///
    /// The memory handed to `fill` is uninitialised; `fill` must write all `width * height * 4` samples or throw.
    public init(
        width: Int, height: Int, fill: (UnsafeMutableBufferPointer<UInt16>) throws -> Void
    ) rethrows {
        let count = width * height * 4
        let samples = try [UInt16](unsafeUninitializedCapacity: count) { buffer, initialized in
            try fill(buffer)
            initialized = count
        }
        self.init(width: width, height: height, samples: samples)
    }

    /// `pixels` widened to 16 bits: each 8-bit value v becomes v × 257, so 255 becomes 65535.
    public init(widening pixels: PixelBuffer) {
        self.init(width: pixels.width, height: pixels.height) { output in
            pixels.bytes.withUnsafeBufferPointer { source in
                for index in source.indices { output[index] = UInt16(source[index]) &* 257 }
            }
        }
    }

    /// The pixels rounded to 8 bits per sample (v × 255 / 65535, to the nearest).
    public var narrowed: PixelBuffer {
        samples.withUnsafeBufferPointer { source in
            PixelBuffer(width: width, height: height) { output in
                for index in source.indices { output[index] = Self.narrow(source[index]) }
            }
        }
    }

    /// One 16-bit sample rounded to 8 bits.
    @inline(__always)
    static func narrow(_ value: UInt16) -> UInt8 { UInt8((UInt32(value) &* 255 &+ 32767) / 65535) }

    /// The pixel at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> RGBA16 {
        let index = (y * width + x) * 4
        return RGBA16(
            red: samples[index], green: samples[index + 1], blue: samples[index + 2], alpha: samples[index + 3])
    }

    /// Whether every pixel is fully opaque (alpha 65535).
    public var isOpaque: Bool {
        samples.withUnsafeBufferPointer { source in
            var all: UInt16 = .max
            for index in stride(from: 3, to: source.count, by: 4) { all &= source[index] }
            return all == .max
        }
    }

    /// Whether every pixel is grey: red, green and blue equal.
    public var isGrey: Bool {
        samples.withUnsafeBufferPointer { source in
            var index = 0
            while index < source.count {
                if source[index] != source[index + 1] || source[index] != source[index + 2] { return false }
                index += 4
            }
            return true
        }
    }
}
