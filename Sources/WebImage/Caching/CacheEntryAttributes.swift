import Foundation

/// What a caller knows about an entry when storing it: its format and HTTP validators.
///
/// The disk cache keeps these next to the bytes and hands them back on a hit (see ``DiskCacheMetadata``), so a
/// loader can revalidate a stale entry with `If-None-Match` / `If-Modified-Since`.
public struct CacheEntryAttributes: Sendable, Hashable {
    /// The format of the bytes; `nil` sniffs it from the bytes when stored.
    public var format: ImageFormat?
    /// The HTTP `ETag` the bytes were served with.
    public var etag: String?
    /// The HTTP `Last-Modified` the bytes were served with, verbatim.
    public var lastModified: String?
    /// When the entry expires, overriding the cache's maximum age (e.g. from `Cache-Control: max-age`).
    public var expires: Date?
    /// The HTTP `Cache-Control` the bytes were served with, verbatim, kept for a server that passes it on.
    public var cacheControl: String?
    /// The HTTP `Expires` the bytes were served with, verbatim, kept for a server that passes it on.
    public var expiresHeader: String?

    /// Creates attributes; all unknown by default.
    public init(
        format: ImageFormat? = nil, etag: String? = nil, lastModified: String? = nil, expires: Date? = nil,
        cacheControl: String? = nil, expiresHeader: String? = nil
    ) {
        self.format = format
        self.etag = etag
        self.lastModified = lastModified
        self.expires = expires
        self.cacheControl = cacheControl
        self.expiresHeader = expiresHeader
    }

    /// No attributes: the format is sniffed and the cache's maximum age applies.
    public static let none = CacheEntryAttributes()
}
