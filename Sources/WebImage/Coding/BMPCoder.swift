import Foundation

/// BMP decoding and encoding, in Swift.
///
/// Decodes OS/2 1.x and 2.x headers and Windows' `BITMAPINFOHEADER` with its V2 to V5 extensions; 1-, 2-, 4- and
/// 8-bit palettes, RLE8 and RLE4 (pixels the runs skip are transparent), 16- and 32-bit `BI_BITFIELDS` and
/// `BI_ALPHABITFIELDS`, 16-bit 5-5-5, 24- and 32-bit pixels, bottom-up and top-down. A 32-bit image whose alpha values
/// are all 0 is opaque, as browsers show it. A V5 header's embedded ICC profile (`PROFILE_EMBEDDED`) is converted to
/// sRGB or kept, as ``DecodingOptions/keepsColorProfile`` says; other colour-space fields (calibrated RGB endpoints and
/// gammas, linked profiles) are ignored. Damaged files are a ``WebImageError``: the limits are checked from the header
/// before anything is allocated, and every offset, size, mask and palette index is checked before it is used.
/// Embedded JPEG or PNG pixels, CMYK, and OS/2 Huffman and RLE24 compression are ``WebImageError/Code/unsupportedFormat``.
///
/// Writes 24-bit pixels, or 32-bit BGRA under a V5 header when the image has transparency (`BMPEncoder`).
public struct BMPCoder: ImageCoding {
    /// Creates the coder.
    public init() {}

    public func canDecode(_ format: ImageFormat) -> Bool { format == .bmp }

    public func canEncode(_ format: ImageFormat) -> Bool { format == .bmp }

    public func info(of data: Data) throws(WebImageError) -> ImageInfo {
        let header = try data.withImageBytes { bytes throws(WebImageError) in try BMPHeader(file: bytes) }
        return ImageInfo(format: .bmp, width: header.width, height: header.height, hasAlpha: header.mayHaveAlpha)
    }

    public func decode(_ data: Data, options: DecodingOptions) throws(WebImageError) -> Image {
        try data.withImageBytes { bytes throws(WebImageError) in
            let header = try BMPHeader(file: bytes)
            var (pixels, _) = try BMPPixels.decode(header, bytes, limits: options.limits)
            let color = ColorHandling(profile: try header.profile(in: bytes), options: options)
            pixels.withUnsafeMutableBufferPointer { color.apply($0) }
            return Image(
                frames: [ImageFrame(pixels: PixelBuffer(width: header.width, height: header.height, bytes: pixels))],
                format: .bmp, colorProfile: color.keptProfile)
        }
    }

    public func encode(_ image: Image, as format: ImageFormat, options: EncodingOptions) throws(WebImageError) -> Data {
        try BMPEncoder.encode(image, options: options)
    }
}
