/// Where a result's bytes came from: a cache of the manager's, a shared cache a loader reads through, or the origin.
public enum ImageDataSource: String, Sendable, Hashable, CaseIterable {
    /// The manager's memory cache.
    case memory
    /// The manager's disk cache.
    case disk
    /// A cache shared by several processes that a loader read through (``ImageResponse/fromSharedCache``), such
    /// as a cluster's S3 tier.
    case sharedCache = "shared"
    /// The origin: a download, a file or a `data:` URL.
    case origin
}

/// What the source said about the version of its bytes: the validators of a conditional request, and the freshness
/// it gave them (`Cache-Control`, `Expires`), which a server in front of it may pass on.
public struct ImageValidators: Sendable, Hashable {
    /// The `ETag` the bytes were served with.
    public var etag: String?
    /// The `Last-Modified` the bytes were served with, verbatim.
    public var lastModified: String?
    /// The `Cache-Control` the bytes were served with, verbatim.
    public var cacheControl: String?
    /// The `Expires` the bytes were served with, verbatim.
    public var expires: String?

    /// Validators; none by default.
    public init(etag: String? = nil, lastModified: String? = nil, cacheControl: String? = nil, expires: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
        self.cacheControl = cacheControl
        self.expires = expires
    }
}
