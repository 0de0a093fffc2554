import CHEIF
import Foundation

extension HEIFImageHandle {
    /// The bits of the coded image's luma samples (8, 10, 12), or 0 when libheif cannot tell.
    var bitsPerSample: Int { max(Int(heif_image_handle_get_luma_bits_per_pixel(raw)), 0) }

    /// The image as one frame: at 16 bits when `options` keep the high bit depth and the image has more than 8 bits
    /// a sample (``decodeRGBA16(color:limits:)``), else at 8 bits (``decodeRGBA(color:)``).
    func decodeFrame(color: ColorHandling, options: DecodingOptions) throws(WebImageError) -> ImageFrame {
        if options.keepsHighBitDepth, let deep = try decodeRGBA16(color: color, limits: options.limits) {
            return ImageFrame(deepPixels: deep)
        }
        return ImageFrame(pixels: try decodeRGBA(color: color))
    }

    /// Decodes to 16-bit RGBA, transformations applied, when the image has more than 8 bits a sample; `nil` for an
    /// 8-bit image, or when `color` applies a profile that ``DeepColorConversion`` cannot apply.
    ///
    /// libheif returns samples of the coded depth (10 or 12 bits); each is scaled to the full 16-bit range, rounding
    /// (1023 becomes 65535), as libavif scales AVIF's. An image without alpha comes out opaque.
    func decodeRGBA16(color: ColorHandling, limits: DecodingLimits) throws(WebImageError) -> PixelBuffer16? {
        guard (9...16).contains(bitsPerSample) else { return nil }
        let size = self.size
        try limits.checkDeepFrame(width: size.width, height: size.height)
        guard let options = heif_decoding_options_alloc() else {
            throw WebImageError(.tooLarge, "libheif could not start")
        }
        defer { heif_decoding_options_free(options) }
        let channels = hasAlpha ? 4 : 3
        var image: OpaquePointer?
        try HEIFFile.check(
            heif_decode_image(
                raw, &image, heif_colorspace_RGB,
                hasAlpha ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RRGGBB_LE, options))
        guard let image else { throw WebImageError(.corruptData, "libheif returned no image") }
        defer { heif_image_release(image) }
        let width = Int(heif_image_get_width(image, heif_channel_interleaved))
        let height = Int(heif_image_get_height(image, heif_channel_interleaved))
        let bits = Int(heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved))
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride),
            width == size.width, height == size.height, (9...16).contains(bits),
            Int(stride) >= width * channels * 2
        else { throw WebImageError(.corruptData, "libheif decoded an unexpected image layout") }
        let maximum = UInt32(1 << bits) - 1
        let pixels = PixelBuffer16(width: width, height: height) { output in
            for row in 0..<height {
                let line = plane + row * Int(stride)
                var to = row * width * 4
                for column in 0..<width {
                    let pixel = line + column * channels * 2
                    for channel in 0..<4 {
                        guard channel < channels else {
                            output[to + channel] = .max
                            continue
                        }
                        // Little-endian, as asked.
                        let value = UInt32(pixel[channel * 2]) | UInt32(pixel[channel * 2 + 1]) << 8
                        output[to + channel] = UInt16((min(value, maximum) * 65535 + maximum / 2) / maximum)
                    }
                    to += 4
                }
            }
        }
        guard color.transform != nil else { return pixels }
        return color.appliedProfile.flatMap { DeepColorConversion.converted(pixels, from: $0) }
    }
}
