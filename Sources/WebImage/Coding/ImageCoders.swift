import Foundation

/// The coder registry: sniffs the format of some bytes, then hands them to the first coder that takes it.
///
/// Conforms to ``ImageCoding`` itself, so a registry can stand wherever one coder can. Coders added later with
/// ``adding(_:)`` are asked first, so users can override the built-in ones.
public struct ImageCoders: ImageCoding {
    /// The coders, asked in order.
    public let coders: [any ImageCoding]

    /// A registry of the given coders, asked in order.
    public init(_ coders: [any ImageCoding]) { self.coders = coders }

    /// JPEG (libjpeg-turbo), PNG and APNG (libspng), GIF (giflib), WebP (libwebp), AVIF (libavif), HEIC (libheif;
    /// encoding with its x265 plugin where installed), BMP and ICO/CUR (in Swift), TIFF (libtiff), JPEG XL (libjxl) and
    /// SVG (librsvg, decoding only).
    public static let `default` = ImageCoders([
        JPEGCoder(), PNGCoder(), GIFCoder(), WebPCoder(), AVIFCoder(), HEICCoder(), BMPCoder(), ICOCoder(),
        TIFFCoder(), JXLCoder(), SVGCoder(),
    ])

    /// A registry that asks `coder` before the ones it already has.
    public func adding(_ coder: any ImageCoding) -> ImageCoders { ImageCoders([coder] + coders) }

    public func canDecode(_ format: ImageFormat) -> Bool { coders.contains { $0.canDecode(format) } }

    public func canEncode(_ format: ImageFormat) -> Bool { coders.contains { $0.canEncode(format) } }

    public func info(of data: Data) throws(WebImageError) -> ImageInfo {
        let info = try decoder(for: data).info(of: data)
        guard info.width > 0, info.height > 0, info.frameCount >= 0 else {
            throw WebImageError(.corruptData, "the header declares an empty \(info.width)x\(info.height) image")
        }
        return info
    }

    public func decode(_ data: Data, options: DecodingOptions) throws(WebImageError) -> Image {
        try decoder(for: data).decode(data, options: options)
    }

    public func decodePartial(_ data: Data, options: DecodingOptions) throws(WebImageError) -> Image? {
        let format = ImageFormat.sniff(data)
        guard let coder = coders.first(where: { $0.canDecode(format) }) else { return nil }
        return try coder.decodePartial(data, options: options)
    }

    public func encode(_ image: Image, as format: ImageFormat, options: EncodingOptions) throws(WebImageError) -> Data {
        guard let coder = coders.first(where: { $0.canEncode(format) }) else {
            throw WebImageError(.unsupportedFormat, "no registered coder encodes \(format)")
        }
        return try coder.encode(image, as: format, options: options)
    }

    private func decoder(for data: Data) throws(WebImageError) -> any ImageCoding {
        guard !data.isEmpty else { throw WebImageError(.truncatedData, "no bytes: the data is empty") }
        let format = ImageFormat.sniff(data)
        if let coder = coders.first(where: { $0.canDecode(format) }) { return coder }
        if format == .unknown {
            throw WebImageError(.unsupportedFormat, "not an image: the bytes match no known image format")
        }
        throw WebImageError(.unsupportedFormat, "\(format) images are recognised but not supported")
    }
}
