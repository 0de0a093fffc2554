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

    /// Creates an object.
    public init(
        data: Data, contentType: String?, etag: String?, lastModified: String?, metadata: [String: String] = [:]
    ) {
        self.data = data
        self.contentType = contentType
        self.etag = etag
        self.lastModified = lastModified
        self.metadata = metadata
    }
}
