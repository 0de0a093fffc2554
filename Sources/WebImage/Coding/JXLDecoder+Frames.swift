import CJXL
import Foundation

extension JXLDecoder {
    /// Runs the decoder into a new buffer until the frame is complete, then converts its colours.
    func framePixels(
        size: PixelSize, format: inout JxlPixelFormat, color: ColorHandling
    ) throws(WebImageError) -> PixelBuffer {
        var needed = 0
        guard JxlDecoderImageOutBufferSize(raw, &format, &needed) == JXL_DEC_SUCCESS,
            needed == size.width * size.height * 4
        else { throw WebImageError(.corruptData, "a JPEG XL frame's size differs from the image's") }
        var failure: WebImageError?
        let pixels = PixelBuffer(width: size.width, height: size.height) { [raw, budget] output in
            guard JxlDecoderSetImageOutBuffer(raw, &format, output.baseAddress, output.count) == JXL_DEC_SUCCESS else {
                failure = WebImageError(.corruptData, "libjxl refused the output buffer")
                return
            }
            do throws(WebImageError) {
                try Self.advance(raw, to: JXL_DEC_FULL_IMAGE, budget: budget)
                color.apply(output)
            } catch {
                failure = error
                output.update(repeating: 0)
            }
        }
        if let failure { throw failure }
        return pixels
    }

    /// Runs the decoder into a 16-bit buffer until the still's frame is complete (``DecodingOptions/keepsHighBitDepth``
    /// for a file of more than 8 bits a sample); a profile to apply (RGB, or grey on grey samples) is applied at 16
    /// bits, or, when lcms2 cannot,
    /// the frame is its 8-bit rounding converted as the 8-bit decode converts it.
    func deepFrame(size: PixelSize, color: ColorHandling, limits: DecodingLimits) throws(WebImageError) -> ImageFrame {
        try limits.checkDeepFrame(width: size.width, height: size.height)
        var format = JxlPixelFormat(
            num_channels: 4, data_type: JXL_TYPE_UINT16, endianness: JXL_NATIVE_ENDIAN, align: 0)
        var needed = 0
        guard JxlDecoderImageOutBufferSize(raw, &format, &needed) == JXL_DEC_SUCCESS,
            needed == size.width * size.height * 8
        else { throw WebImageError(.corruptData, "a JPEG XL frame's size differs from the image's") }
        var failure: WebImageError?
        let pixels = PixelBuffer16(width: size.width, height: size.height) { [raw, budget] output in
            guard JxlDecoderSetImageOutBuffer(raw, &format, output.baseAddress, needed) == JXL_DEC_SUCCESS else {
                failure = WebImageError(.corruptData, "libjxl refused the output buffer")
                output.update(repeating: 0)
                return
            }
            do throws(WebImageError) {
                try Self.advance(raw, to: JXL_DEC_FULL_IMAGE, budget: budget)
            } catch {
                failure = error
                output.update(repeating: 0)
            }
        }
        if let failure { throw failure }
        guard color.transform != nil else { return ImageFrame(deepPixels: pixels) }
        if let profile = color.appliedProfile,
            let converted = DeepColorConversion.converted(pixels, from: profile, source: isGrey ? .grey : .rgba)
        {
            return ImageFrame(deepPixels: converted)
        }
        var bytes = pixels.narrowed.bytes
        bytes.withUnsafeMutableBufferPointer { color.apply($0) }
        return ImageFrame(pixels: PixelBuffer(width: size.width, height: size.height, bytes: bytes))
    }
}
