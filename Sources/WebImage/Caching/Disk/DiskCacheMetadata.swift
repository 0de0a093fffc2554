import Foundation

/// What the disk cache knows about one entry, kept in the entry's file header next to the bytes.
public struct DiskCacheMetadata: Sendable, Hashable {
    /// The key the entry was stored under (the file is named by its SHA-256).
    public let key: String
    /// The size of the stored bytes, without the header.
    public let size: Int
    /// The format of the bytes, as given when stored or sniffed.
    public let format: ImageFormat
    /// The HTTP `ETag` given when stored.
    public let etag: String?
    /// The HTTP `Last-Modified` given when stored.
    public let lastModified: String?
    /// The HTTP `Cache-Control` given when stored.
    public internal(set) var cacheControl: String? = nil
    /// The HTTP `Expires` given when stored (``CacheEntryAttributes/expiresHeader``).
    public internal(set) var expiresHeader: String? = nil
    /// When the entry was written.
    public let created: Date
    /// The expiry given when stored, if any; otherwise the entry expires ``DiskCache/Configuration/maxAge`` after
    /// ``created``.
    public let expires: Date?
    /// When the entry was last read or written (the file's modification time, updated on reads at a coarse
    /// resolution); trimming removes the least recently accessed entries first.
    public let lastAccess: Date

    /// The date after which the entry is expired, given the cache's maximum age.
    public func expiryDate(maxAge: TimeInterval) -> Date {
        expires ?? created.addingTimeInterval(maxAge)
    }
}

/// The bytes of a disk cache entry with its metadata.
public struct DiskCacheEntry: Sendable {
    /// The stored bytes, verified to have the stored length.
    public let data: Data
    /// The entry's metadata.
    public let metadata: DiskCacheMetadata
}
