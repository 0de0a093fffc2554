import Foundation

/// What a cache query found: the image, the encoded bytes when they came from disk, and the tier that answered.
public struct ImageCacheResult: Sendable {
    /// The decoded image; `nil` only when the query asked for data without decoding.
    public let image: Image?
    /// The encoded bytes, when the answer came from disk.
    public let data: Data?
    /// The tier that answered: ``ImageCacheType/memory`` or ``ImageCacheType/disk``.
    public let cacheType: ImageCacheType
    /// The disk entry's metadata (validators, expiry, last access), when the answer came from disk.
    public let metadata: DiskCacheMetadata?

    /// Creates a result.
    public init(image: Image?, data: Data? = nil, cacheType: ImageCacheType, metadata: DiskCacheMetadata? = nil) {
        self.image = image
        self.data = data
        self.cacheType = cacheType
        self.metadata = metadata
    }
}
