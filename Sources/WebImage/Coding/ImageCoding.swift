import Foundation

/// A codec for one or more image formats. Implementations are stateless and safe to call from any thread.
///
/// Register coders with ``ImageCoders``; the registry sniffs the bytes and asks each coder in turn.
public protocol ImageCoding: Sendable {
    /// Whether this coder decodes bytes sniffed as `format`.
    func canDecode(_ format: ImageFormat) -> Bool
    /// Whether this coder encodes to `format`.
    func canEncode(_ format: ImageFormat) -> Bool
    /// Reads the header only: size, frames, orientation.
    func info(of data: Data) throws(WebImageError) -> ImageInfo
    /// Decodes complete image bytes.
    func decode(_ data: Data, options: DecodingOptions) throws(WebImageError) -> Image
    /// Decodes the bytes received so far into a preview, or returns `nil` when they do not yet make one.
    ///
    /// Called repeatedly while a download progresses; the final image comes from ``decode(_:options:)``.
    func decodePartial(_ data: Data, options: DecodingOptions) throws(WebImageError) -> Image?
    /// Encodes an image in `format`.
    func encode(_ image: Image, as format: ImageFormat, options: EncodingOptions) throws(WebImageError) -> Data
}

extension ImageCoding {
    public func canEncode(_ format: ImageFormat) -> Bool { false }

    public func decodePartial(_ data: Data, options: DecodingOptions) throws(WebImageError) -> Image? { nil }

    public func encode(_ image: Image, as format: ImageFormat, options: EncodingOptions) throws(WebImageError) -> Data {
        throw WebImageError(.unsupportedFormat, "no encoder for \(format)")
    }
}
