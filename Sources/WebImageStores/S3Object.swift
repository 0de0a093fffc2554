import Foundation

/// An object read from an S3-compatible store: its bytes and what the store says of them.
public struct S3Object: Sendable {
    /// The object's bytes.
    public let data: Data
    /// The `Content-Type` it was stored with, if any.
    public let contentType: String?
    /// The store's entity tag, if any.
    public let etag: String?
    /// When it was stored, from `Last-Modified`, if the store said.
    public let lastModified: String?
    /// The user metadata it was stored with (`x-amz-meta-NAME` headers), by lower-case `NAME`.
    public let metadata: [String: String]
    /// The `Cache-Control` it was stored with (the store's answer's header), if any.
    public let cacheControl: String?
    /// The `Expires` it was stored with, as the store sent it, if any.
    public let expires: String?

    /// Creates an object.
    public init(
        data: Data, contentType: String?, etag: String?, lastModified: String?, metadata: [String: String] = [:],
        cacheControl: String? = nil, expires: String? = nil
    ) {
        self.data = data
        self.contentType = contentType
        self.etag = etag
        self.lastModified = lastModified
        self.metadata = metadata
        self.cacheControl = cacheControl
        self.expires = expires
    }
}
