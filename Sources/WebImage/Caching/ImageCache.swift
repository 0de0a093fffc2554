import Foundation

/// The standard image cache: decoded images in a ``MemoryImageCache``, their encoded bytes in a ``DiskCache``.
///
/// A query looks in memory first (without suspending), then on disk; a disk hit is decoded with the cache's coder
/// off the caller and promoted to memory. Bytes that fail to decode are never served: the entry is evicted and the
/// query is a miss. Storing an image without its bytes encodes it (in its own format when the coder can, else
/// animated WebP for animations, so they keep their frames, and PNG for stills).
public final class ImageCache: ImageCaching {
    /// The memory tier.
    public let memory: MemoryImageCache
    /// The disk tier.
    public let disk: DiskCache
    /// Decodes disk hits and encodes images stored without bytes.
    public let coder: any ImageCoding
    /// How disk hits are decoded.
    public let decodingOptions: DecodingOptions
    /// How images stored without bytes are encoded.
    public let encodingOptions: EncodingOptions

    /// A cache over the given tiers.
    public init(
        memory: MemoryImageCache = MemoryImageCache(), disk: DiskCache, coder: any ImageCoding = ImageCoders.default,
        decodingOptions: DecodingOptions = .default, encodingOptions: EncodingOptions = EncodingOptions()
    ) {
        self.memory = memory
        self.disk = disk
        self.coder = coder
        self.decodingOptions = decodingOptions
        self.encodingOptions = encodingOptions
    }

    /// A cache with the default limits and its disk tier in ``DiskCache/defaultDirectory(namespace:)``.
    public convenience init(namespace: String = "default") {
        self.init(disk: DiskCache(namespace: namespace))
    }

    public func cachedImage(forKey key: String) -> Image? { memory.image(forKey: key) }

    /// Decoding runs on the global concurrent executor, not on the caller's actor.
    @concurrent
    public func query(forKey key: String, in types: ImageCacheType, decode: Bool) async -> ImageCacheResult? {
        if types.contains(.memory), let image = memory.image(forKey: key) {
            return ImageCacheResult(image: image, cacheType: .memory)
        }
        guard types.contains(.disk), let entry = await disk.entry(forKey: key) else { return nil }
        guard decode else {
            return ImageCacheResult(image: nil, data: entry.data, cacheType: .disk, metadata: entry.metadata)
        }
        let (coder, options) = (coder, decodingOptions)
        let decoded = try? await decodeDiskHit(forKey: key, promote: types.contains(.memory)) {
            () throws(WebImageError) in try coder.decode(entry.data, options: options)
        }
        guard let image = decoded else { return nil }
        return ImageCacheResult(image: image, data: entry.data, cacheType: .disk, metadata: entry.metadata)
    }

    public func store(
        _ image: Image?, data: Data?, forKey key: String, attributes: CacheEntryAttributes, in types: ImageCacheType
    ) async throws(WebImageError) {
        if types.contains(.memory), let image { memory.setImage(image, forKey: key) }
        guard types.contains(.disk) else { return }
        if let data {
            try await disk.store(data, forKey: key, attributes: attributes)
        } else if let image, let encoded = try encodedForDisk(image, attributes: attributes) {
            try await disk.store(encoded.data, forKey: key, attributes: encoded.attributes)
        }
    }

    /// `image` encoded in ``CacheEntryAttributes/format``, else its own format, else animated WebP for animations
    /// and PNG for stills, whichever the coder can write first.
    public func encodedForDisk(
        _ image: Image, attributes: CacheEntryAttributes
    ) throws(WebImageError) -> (data: Data, attributes: CacheEntryAttributes)? {
        var attributes = attributes
        var format = attributes.format ?? image.format
        if !coder.canEncode(format) { format = image.isAnimated && coder.canEncode(.webp) ? .webp : .png }
        attributes.format = format
        return (try coder.encode(image, as: format, options: encodingOptions), attributes)
    }

    public func remove(forKey key: String, from types: ImageCacheType) async {
        if types.contains(.memory) { memory.removeImage(forKey: key) }
        if types.contains(.disk) { await disk.remove(forKey: key) }
    }

    public func contains(_ key: String, in types: ImageCacheType) async -> ImageCacheType {
        if types.contains(.memory), memory.containsImage(forKey: key) { return .memory }
        if types.contains(.disk), await disk.contains(key) { return .disk }
        return .none
    }

    public func removeAll(from types: ImageCacheType) async {
        if types.contains(.memory) { memory.removeAll() }
        if types.contains(.disk) { await disk.removeAll() }
    }

    /// Removes every entry from memory and disk.
    public func removeAll() async { await removeAll(from: .all) }

    public func count(in types: ImageCacheType) async -> Int {
        (types.contains(.memory) ? memory.count : 0) + (types.contains(.disk) ? await disk.count() : 0)
    }

    public func totalSize(in types: ImageCacheType) async -> Int {
        (types.contains(.memory) ? memory.totalCost : 0) + (types.contains(.disk) ? await disk.totalSize() : 0)
    }

    /// Removes expired disk entries and trims the disk to its size limit (memory is always within its limits).
    public func trim() async {
        await disk.removeExpired()
        await disk.trim()
    }
}
