import CSPNG
import Foundation

extension PNGCoder {
    /// Decodes a still PNG of 16-bit samples to 16-bit RGBA (``DecodingOptions/keepsHighBitDepth``), its `eXIf`
    /// orientation and the profile it keeps; `nil` when the file has 8 bits or fewer per sample. A profile to apply
    /// is applied at 16 bits (``DeepColorConversion``): an RGB one to the colours, a grey one to the grey levels.
    static func decodeDeep(
        _ data: Data, options: DecodingOptions, unlimited: Bool
    ) throws(WebImageError) -> (PixelBuffer16, ImageOrientation, Data?)? {
        guard let context = spng_ctx_new(0) else { throw WebImageError(.corruptData, "libspng did not start") }
        defer { spng_ctx_free(context) }
        return try data.withImageBytes { bytes throws(WebImageError) in
            try check(spng_set_png_buffer(context, bytes.baseAddress, bytes.count))
            if !unlimited { spng_set_chunk_limits(context, 64 << 20, 64 << 20) }
            var header = spng_ihdr()
            try check(spng_get_ihdr(context, &header))
            guard header.bit_depth == 16 else { return nil }
            let (width, height) = (Int(header.width), Int(header.height))
            try options.limits.checkDeepFrame(width: width, height: height)
            let isGrey =
                header.color_type == UInt8(SPNG_COLOR_TYPE_GRAYSCALE.rawValue)
                || header.color_type == UInt8(SPNG_COLOR_TYPE_GRAYSCALE_ALPHA.rawValue)
            let profile = iccProfile(context, gamma: options.appliesPNGGamma)
            let color = ColorHandling(profile: profile, source: isGrey ? .grey : .rgba, options: options)
            var status: Int32 = 0
            // SPNG_FMT_RGBA16 samples are in the host's byte order.
            let pixels = PixelBuffer16(width: width, height: height) { output in
                status = spng_decode_image(
                    context, output.baseAddress, output.count * 2, Int32(SPNG_FMT_RGBA16.rawValue),
                    Int32(SPNG_DECODE_TRNS.rawValue))
            }
            try check(status)
            guard
                let converted = color.transform == nil
                    ? pixels
                    : profile.flatMap({
                        DeepColorConversion.converted(pixels, from: $0, source: isGrey ? .grey : .rgba)
                    })
            else { return nil }
            var exif = spng_exif()
            let orientation: ImageOrientation =
                spng_get_exif(context, &exif) == 0 && exif.data != nil
                ? EXIFReader.orientation(in: UnsafeRawBufferPointer(start: exif.data, count: exif.length)) : .up
            return (converted, orientation, color.keptProfile)
        }
    }

    /// The samples and IHDR colour type of 16-bit `pixels` as a PNG stores them (big-endian): grey when every pixel
    /// is grey, without alpha when every pixel is opaque.
    static func deepSamples(_ pixels: PixelBuffer16) -> (bytes: [UInt8], colorType: spng_color_type) {
        let grey = pixels.isGrey
        let opaque = pixels.isOpaque
        let channels = (grey ? [0] : [0, 1, 2]) + (opaque ? [] : [3])
        let colorType: spng_color_type =
            grey
            ? (opaque ? SPNG_COLOR_TYPE_GRAYSCALE : SPNG_COLOR_TYPE_GRAYSCALE_ALPHA)
            : (opaque ? SPNG_COLOR_TYPE_TRUECOLOR : SPNG_COLOR_TYPE_TRUECOLOR_ALPHA)
        let count = pixels.width * pixels.height * channels.count * 2
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { output, initialized in
            pixels.samples.withUnsafeBufferPointer { source in
                var to = 0
                for from in stride(from: 0, to: source.count, by: 4) {
                    for channel in channels {
                        let value = source[from + channel]
                        output[to] = UInt8(value >> 8)
                        output[to + 1] = UInt8(truncatingIfNeeded: value)
                        to += 2
                    }
                }
            }
            initialized = count
        }
        return (bytes, colorType)
    }
}
