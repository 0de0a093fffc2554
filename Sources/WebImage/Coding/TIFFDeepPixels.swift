import CTIFF
import Foundation

/// The pixels of a TIFF page of 16-bit grey or RGB samples, kept at 16 bits (``DecodingOptions/keepsHighBitDepth``).
enum TIFFDeepPixels {
    /// The page's pixels as 16-bit RGBA (associated alpha divided out, `MINISWHITE` inverted) and the handling of its
    /// profile (an RGB one applied at 16 bits when it is not kept); `nil` when the samples are not 16-bit grey or RGB,
    /// or when a grey profile must be applied to them (the 8-bit decode applies it).
    static func decode(
        _ file: TIFFFile, options: DecodingOptions
    ) throws(WebImageError) -> (pixels: PixelBuffer16, color: ColorHandling)? {
        guard file.isChunky16Bit else { return nil }
        try options.limits.checkDeepFrame(width: file.width, height: file.height)
        let colors = file.photometric == Int(PHOTOMETRIC_RGB) ? 3 : 1
        let color = ColorHandling(profile: file.profile, source: colors == 1 ? .grey : .rgba, options: options)
        // A profile to apply now: at 16 bits for RGB; a grey one has no 16-bit path.
        guard color.transform == nil || colors == 3 else { return nil }
        let samples = try TIFFPixels.readSamples(file, bytesPerSample: 2)
        let count = file.samplesPerPixel
        let alphaIndex = file.alpha != .none && count > colors ? colors : nil
        let inverted = file.photometric == Int(PHOTOMETRIC_MINISWHITE)
        let pixels = samples.withUnsafeBytes { raw in
            let input = raw.bindMemory(to: UInt16.self)
            return PixelBuffer16(width: file.width, height: file.height) { output in
                var (from, to) = (0, 0)
                while to < output.count {
                    if colors == 1 {
                        let grey = inverted ? .max - input[from] : input[from]
                        (output[to], output[to + 1], output[to + 2]) = (grey, grey, grey)
                    } else {
                        (output[to], output[to + 1], output[to + 2]) = (input[from], input[from + 1], input[from + 2])
                    }
                    output[to + 3] = alphaIndex.map { input[from + $0] } ?? .max
                    from += count
                    to += 4
                }
                if file.alpha == .associated { unpremultiply(output) }
            }
        }
        guard color.transform != nil else { return (pixels, color) }
        guard let converted = file.profile.flatMap({ DeepColorConversion.converted(pixels, from: $0) }) else {
            return nil
        }
        return (converted, color)
    }

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
