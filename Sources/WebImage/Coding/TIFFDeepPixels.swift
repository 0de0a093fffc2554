import CTIFF
import Foundation

/// The pixels of a TIFF page of grey or RGB samples of more than 8 bits (``TIFFFile/wideSamples``), at 16 bits: kept
/// so with ``DecodingOptions/keepsHighBitDepth``, else rounded to 8 by ``TIFFCoder`` (libtiff's RGBA conversion reads
/// no 32-bit samples).
///
/// 16-bit unsigned samples are taken as they are, 32-bit unsigned ones scaled to 16 bits; 32-bit floats are linear
/// light from 0 to 1 (libvips' scRGB reading of them, Photoshop's convention), encoded with sRGB's curve, as imgproxy
/// converts them (to 16-bit RGB or grey with `preserve_hdr`), their alpha scaled, and their profile ignored, as
/// imgproxy removes a linear image's.
enum TIFFDeepPixels {
    /// The page's pixels as 16-bit RGBA (associated alpha divided out, unsigned `MINISWHITE` inverted) and the
    /// handling of its profile (applied at 16 bits when it is not kept: an RGB one to the colours, a grey one to the
    /// levels); `nil` when the samples are not wide grey or RGB ones, or the profile has no 16-bit conversion.
    static func decode(
        _ file: TIFFFile, options: DecodingOptions
    ) throws(WebImageError) -> (pixels: PixelBuffer16, color: ColorHandling)? {
        guard let kind = file.wideSamples else { return nil }
        try options.limits.checkDeepFrame(width: file.width, height: file.height)
        // The stored samples are read whole first: up to 8 samples of 4 bytes a pixel.
        let (pixelCount, overflow) = file.width.multipliedReportingOverflow(by: file.height)
        let (sampleBytes, overflow2) = pixelCount.multipliedReportingOverflow(by: file.samplesPerPixel * kind.bytes)
        guard !overflow, !overflow2, sampleBytes <= options.limits.maxTotalBytes else {
            throw WebImageError(.tooLarge, "\(file.width)x\(file.height) TIFF samples exceed the limits")
        }
        let colors = file.photometric == Int(PHOTOMETRIC_RGB) ? 3 : 1
        let source: ColorSource = colors == 1 ? .grey : .rgba
        let color = ColorHandling(profile: kind == .float32 ? nil : file.profile, source: source, options: options)
        let samples = try TIFFPixels.readSamples(file, bytesPerSample: kind.bytes)
        let layout = Layout(
            count: file.samplesPerPixel, colors: colors,
            alphaIndex: file.alpha != .none && file.samplesPerPixel > colors ? colors : nil,
            associated: file.alpha == .associated)
        let pixels = samples.withUnsafeBytes { raw in
            PixelBuffer16(width: file.width, height: file.height) { output in
                switch kind {
                case .unsigned16:
                    unsigned(raw.bindMemory(to: UInt16.self), layout, file: file, into: output) { $0 }
                case .unsigned32:
                    unsigned(raw.bindMemory(to: UInt32.self), layout, file: file, into: output) { value in
                        UInt16((UInt64(value) * 65535 + 2_147_483_647) / 4_294_967_295)
                    }
                case .float32:
                    linear(raw.bindMemory(to: Float.self), layout, into: output)
                }
            }
        }
        guard color.transform != nil else { return (pixels, color) }
        guard
            let converted = color.appliedProfile.flatMap({
                DeepColorConversion.converted(pixels, from: $0, source: source)
            })
        else { return nil }
        return (converted, color)
    }

    /// Where a pixel's samples are.
    private struct Layout {
        /// Samples a pixel.
        let count: Int
        /// Colour samples: 1 (grey) or 3 (RGB).
        let colors: Int
        /// The alpha sample, if any.
        let alphaIndex: Int?
        /// Whether the colours are premultiplied by alpha.
        let associated: Bool
    }

    private static func unsigned<Sample: UnsignedInteger>(
        _ input: UnsafeBufferPointer<Sample>, _ layout: Layout, file: TIFFFile,
        into output: UnsafeMutableBufferPointer<UInt16>, widen: (Sample) -> UInt16
    ) {
        let inverted = file.photometric == Int(PHOTOMETRIC_MINISWHITE)
        var (from, to) = (0, 0)
        while to < output.count {
            if layout.colors == 1 {
                let grey = inverted ? .max - widen(input[from]) : widen(input[from])
                (output[to], output[to + 1], output[to + 2]) = (grey, grey, grey)
            } else {
                (output[to], output[to + 1]) = (widen(input[from]), widen(input[from + 1]))
                output[to + 2] = widen(input[from + 2])
            }
            output[to + 3] = layout.alphaIndex.map { widen(input[from + $0]) } ?? .max
            from += layout.count
            to += 4
        }
        if layout.associated { unpremultiply(output) }
    }

    /// Linear floats to sRGB-encoded 16-bit samples; premultiplied colours are divided by their alpha first.
    private static func linear(
        _ input: UnsafeBufferPointer<Float>, _ layout: Layout, into output: UnsafeMutableBufferPointer<UInt16>
    ) {
        var (from, to) = (0, 0)
        while to < output.count {
            let alpha = layout.alphaIndex.map { clamped(Double(input[from + $0])) } ?? 1
            let divisor = layout.associated && alpha > 0 ? alpha : 1
            for channel in 0..<3 {
                let value = input[from + (layout.colors == 1 ? 0 : channel)]
                output[to + channel] = sixteenBits(encoded(clamped(Double(value) / divisor)))
            }
            output[to + 3] = sixteenBits(alpha)
            from += layout.count
            to += 4
        }
    }

    /// `value` within 0 to 1 (NaN as 0).
    private static func clamped(_ value: Double) -> Double { value > 0 ? min(value, 1) : 0 }

    /// sRGB's transfer function, from linear light.
    private static func encoded(_ value: Double) -> Double {
        value <= 0.003_130_8 ? value * 12.92 : 1.055 * pow(value, 1 / 2.4) - 0.055
    }

    private static func sixteenBits(_ value: Double) -> UInt16 { UInt16(clamped(value) * 65535 + 0.5) }

    private static func unpremultiply(_ samples: UnsafeMutableBufferPointer<UInt16>) {
        for index in stride(from: 0, to: samples.count, by: 4) {
            let alpha = UInt32(samples[index + 3])
            guard alpha > 0, alpha < 65535 else { continue }
            for channel in index..<(index + 3) {
                samples[channel] = UInt16(min((UInt32(samples[channel]) * 65535 + alpha / 2) / alpha, 65535))
            }
        }
    }
}
