/// A rectangle of 8-bit RGBA pixels with straight (not premultiplied) alpha, rows contiguous and top-down.
///
/// The bytes live in one array, allocated once by the decoder; copies of the buffer share it (copy-on-write), so
/// passing a buffer through the pipeline never copies pixels.
public struct PixelBuffer: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The pixels: `height` rows of `width * 4` bytes, each pixel R, G, B, A.
    public let bytes: [UInt8]

    /// Bytes in one row: `width * 4`.
    public var bytesPerRow: Int { width * 4 }

    /// The size in pixels.
    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// Wraps `bytes`, which must hold exactly `width * height * 4` bytes.
    public init(width: Int, height: Int, bytes: [UInt8]) {
        precondition(width > 0 && height > 0, "a pixel buffer needs a positive size")
        precondition(bytes.count == width * height * 4, "\(bytes.count) bytes for \(width)x\(height) RGBA")
        self.width = width
        self.height = height
        self.bytes = bytes
    }

    /// Allocates a buffer once and lets `fill` write every byte of it.
    ///
    /// The memory handed to `fill` is uninitialised; `fill` must write all `width * height * 4` bytes or throw.
    public init(
        width: Int, height: Int, fill: (UnsafeMutableBufferPointer<UInt8>) throws -> Void
    ) rethrows {
        let count = width * height * 4
        let bytes = try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            try fill(buffer)
            initialized = count
        }
        self.init(width: width, height: height, bytes: bytes)
    }

    /// A buffer of one colour.
    public init(width: Int, height: Int, filledWith color: RGBA) {
        self.init(width: width, height: height) { buffer in
            for index in stride(from: 0, to: buffer.count, by: 4) {
                buffer[index] = color.red
                buffer[index + 1] = color.green
                buffer[index + 2] = color.blue
                buffer[index + 3] = color.alpha
            }
        }
    }

    /// The pixel at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> RGBA {
        let index = (y * width + x) * 4
        return RGBA(red: bytes[index], green: bytes[index + 1], blue: bytes[index + 2], alpha: bytes[index + 3])
    }

    /// Whether every pixel is fully opaque.
    public var isOpaque: Bool {
        // Alpha is the high byte of each pixel read as a little-endian word; the words are ANDed in blocks, without
        // a branch per pixel, so the loop vectorises.
        bytes.withUnsafeBytes { raw in
            let count = raw.count / 4
            var block = 0
            while block < count {
                let end = min(block + 1024, count)
                var all: UInt32 = .max
                for index in block..<end {
                    all &= UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: index &* 4, as: UInt32.self))
                }
                if all >> 24 != 255 { return false }
                block = end
            }
            return true
        }
    }
}

/// One 8-bit RGBA colour with straight alpha.
public struct RGBA: Hashable, Sendable {
    /// Red, 0–255.
    public var red: UInt8
    /// Green, 0–255.
    public var green: UInt8
    /// Blue, 0–255.
    public var blue: UInt8
    /// Opacity, 0 (transparent) to 255 (opaque), not premultiplied.
    public var alpha: UInt8

    /// Creates a colour from its four channels.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Opaque black.
    public static let black = RGBA(red: 0, green: 0, blue: 0)
    /// Opaque white.
    public static let white = RGBA(red: 255, green: 255, blue: 255)
    /// Fully transparent.
    public static let clear = RGBA(red: 0, green: 0, blue: 0, alpha: 0)
}
