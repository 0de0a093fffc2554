import Foundation

/// The server's watermark image and its opacity (imgproxy's `IMGPROXY_WATERMARK_DATA`, `_PATH`, `_URL` and
/// `_OPACITY`): what the `watermark` option lays over results.
public struct WatermarkConfiguration: Sendable, Hashable {
    /// Where the watermark image comes from.
    public var source: WatermarkSource
    /// The base opacity, more than 0 and at most 1, multiplied by the `watermark` option's. Default 1.
    public var opacity = 1.0

    /// A watermark read from `source`, at the base opacity `opacity`.
    public init(source: WatermarkSource, opacity: Double = 1) {
        self.source = source
        self.opacity = opacity
    }

    /// Throws unless the opacity is in (0, 1] and a URL source is http(s).
    func validate() throws(ImageServerConfigurationError) {
        guard opacity > 0, opacity <= 1 else {
            throw ImageServerConfigurationError("watermark-opacity", "must be more than 0 and at most 1")
        }
        if case .url(let url) = source.kind, !["http", "https"].contains(url.scheme?.lowercased() ?? "") {
            throw ImageServerConfigurationError("watermark-url", "must be an http(s) URL")
        }
    }
}

/// Where the watermark image comes from: its bytes, a file, or a URL. The bytes and the file are decoded when the
/// ``ImageServer`` is built (a startup error when they are not an image); a URL is fetched by
/// ``ImageServer/prepare()`` at start, as imgproxy fetches it (else at the first request that asks for a watermark),
/// through the server's source loader with its limits and address rules, and kept.
public struct WatermarkSource: Sendable, Hashable, CustomStringConvertible {
    enum Kind: Sendable, Hashable {
        case data(Data)
        case path(URL)
        case url(URL)
    }

    let kind: Kind

    private init(_ kind: Kind) { self.kind = kind }

    /// The encoded image itself (imgproxy's `IMGPROXY_WATERMARK_DATA`, there base64).
    public static func data(_ data: Data) -> WatermarkSource { WatermarkSource(.data(data)) }
    /// An image file (imgproxy's `IMGPROXY_WATERMARK_PATH`).
    public static func path(_ file: URL) -> WatermarkSource { WatermarkSource(.path(file)) }
    /// An image at an http(s) URL (imgproxy's `IMGPROXY_WATERMARK_URL`).
    public static func url(_ url: URL) -> WatermarkSource { WatermarkSource(.url(url)) }

    public var description: String {
        switch kind {
        case .data(let data): "\(data.count) bytes"
        case .path(let file): file.path
        case .url(let url): url.absoluteString
        }
    }
}
