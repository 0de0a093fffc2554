import Foundation

/// The bytes a loader produced and what the source said about them.
public struct ImageResponse: Sendable {
    /// The encoded image (after the ``ImageDecryptor``, if any). Empty for a 304 Not Modified.
    public var data: Data
    /// The URL the bytes came from: the request's URL, or the last one after redirects.
    public var url: URL
    /// The HTTP status; `nil` for file and `data:` loads.
    public var httpStatus: Int?
    /// The response headers (empty for file and `data:` loads).
    public var headers: ImageHTTPHeaders
    /// The MIME type: the `Content-Type` header without parameters, or the `data:` URI's type.
    public var contentType: String?
    /// The `ETag` header, for revalidation with `If-None-Match`.
    public var etag: String?
    /// The `Last-Modified` header, for revalidation with `If-Modified-Since`.
    public var lastModified: String?
    /// The `Cache-Control` header, verbatim.
    public var cacheControl: String?
    /// The `Expires` header, verbatim.
    public var expires: String?
    /// The length the source announced (`Content-Length`, or the file size); `nil` when unknown.
    public var expectedLength: Int?
    /// Whether a loader answered from a cache shared by several processes rather than from the origin; the result
    /// then says ``ImageDataSource/sharedCache``.
    public var fromSharedCache = false

    /// Creates a response.
    public init(
        data: Data, url: URL, httpStatus: Int? = nil, headers: ImageHTTPHeaders = [:], contentType: String? = nil,
        expectedLength: Int? = nil
    ) {
        self.data = data
        self.url = url
        self.httpStatus = httpStatus
        self.headers = headers
        self.contentType = contentType ?? headers["Content-Type"].map(Self.mimeType)
        self.etag = headers["ETag"]
        self.lastModified = headers["Last-Modified"]
        self.cacheControl = headers["Cache-Control"]
        self.expires = headers["Expires"]
        self.expectedLength = expectedLength
    }

    /// Whether the server answered 304 Not Modified to a conditional request: the cached bytes are still good.
    public var isNotModified: Bool { httpStatus == 304 }

    /// `image/png; charset=x` → `image/png`, lowercased.
    static func mimeType(_ contentType: String) -> String {
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        let base = contentType.utf8.prefix { $0 != UInt8(ascii: ";") }.drop(while: isBlank).reversed().drop(
            while: isBlank)
        return String(decoding: base.reversed().map(\.asciiLowercased), as: UTF8.self)
    }
}
