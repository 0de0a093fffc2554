import Foundation

/// An image cache: the seam between the manager and wherever images are kept.
///
/// ``ImageCache`` (memory + disk) and ``ImageCaches`` (a composite of caches) conform, as does
/// ``MemoryImageCache`` alone. Operations take the set of tiers to touch; a query answers with the tier it came from.
/// A memory hit is answered synchronously by ``cachedImage(forKey:)`` and never suspends; everything that may touch
/// the disk is `async` and does its I/O off the caller.
public protocol ImageCaching: Sendable {
    /// The image held in memory for `key`, without suspending and without touching the disk.
    func cachedImage(forKey key: String) -> Image?

    /// Looks `key` up in `types`, fastest tier first.
    ///
    /// - Parameters:
    ///   - key: the entry's key.
    ///   - types: the tiers to ask.
    ///   - decode: when `false`, a disk hit returns the bytes without decoding them (``ImageCacheResult/image`` is
    ///     `nil`); a memory hit always returns the image.
    /// - Returns: what was found and where, or `nil` when no tier has a usable entry. A corrupt disk entry, or one
    ///   that fails to decode, is a miss and is removed.
    func query(forKey key: String, in types: ImageCacheType, decode: Bool) async -> ImageCacheResult?

    /// Stores `image` in memory and its encoded bytes on disk, for the tiers in `types`.
    ///
    /// `data` is written to disk as is; when it is `nil`, the image is encoded (in ``CacheEntryAttributes/format``,
    /// else the image's own format, else PNG). When `image` is `nil`, only the disk tier is written.
    /// - Throws: ``WebImageError/Code/cacheFailure`` when the disk write fails (full disk, read-only directory), or the
    ///   encoder's error.
    func store(
        _ image: Image?, data: Data?, forKey key: String, attributes: CacheEntryAttributes, in types: ImageCacheType
    ) async throws(WebImageError)

    /// The bytes ``store(_:data:forKey:attributes:in:)`` writes to disk for `image` when it is given no data, and the
    /// attributes naming their format; `nil` when this cache encodes nothing itself (the default).
    ///
    /// The manager calls it on its bounded work queue and then stores the bytes, so that encoding for the disk counts
    /// against the same width as decoding; a cache that returns `nil` encodes inside `store` instead.
    func encodedForDisk(
        _ image: Image, attributes: CacheEntryAttributes
    ) throws(WebImageError) -> (data: Data, attributes: CacheEntryAttributes)?
    /// Removes `key` from the tiers in `types`. Removing an absent key does nothing.
    func remove(forKey key: String, from types: ImageCacheType) async

    /// The tier among `types` that holds `key` (memory first), or ``ImageCacheType/none``. Does not read the entry.
    func contains(_ key: String, in types: ImageCacheType) async -> ImageCacheType

    /// Removes every entry from the tiers in `types`.
    func removeAll(from types: ImageCacheType) async

    /// The number of entries in the tiers in `types`.
    func count(in types: ImageCacheType) async -> Int

    /// The total size in bytes of the tiers in `types`: pixel bytes in memory, file bytes on disk.
    func totalSize(in types: ImageCacheType) async -> Int

    /// Enforces the limits now: removes expired disk entries and trims every tier to its limits.
    func trim() async
}

extension ImageCaching {
    /// Encodes nothing: ``store(_:data:forKey:attributes:in:)`` does what it needs.
    public func encodedForDisk(
        _ image: Image, attributes: CacheEntryAttributes
    ) throws(WebImageError) -> (data: Data, attributes: CacheEntryAttributes)? { nil }

    /// Decodes the bytes of a disk hit for `key` with `decode`. Bytes that do not decode are never served: the entry
    /// is removed from disk, `evicted` hears why, and the answer is `nil`. A cancellation is rethrown. A decoded
    /// image is promoted to memory when `promote` is set.
    func decodeDiskHit(
        forKey key: String, promote: Bool, evicted: (WebImageError) -> Void = { _ in },
        _ decode: () async throws(WebImageError) -> Image
    ) async throws(WebImageError) -> Image? {
        let image: Image
        do {
            image = try await decode()
        } catch  where error.code == .cancelled {
            throw error
        } catch {
            evicted(error)
            await remove(forKey: key, from: .disk)
            return nil
        }
        if promote { try? await store(image, data: nil, forKey: key, attributes: .none, in: .memory) }
        return image
    }

    /// Looks `key` up in every tier and decodes a disk hit.
    public func query(forKey key: String) async -> ImageCacheResult? {
        await query(forKey: key, in: .all, decode: true)
    }

    /// Stores `image` (and `data`, if given) in every tier.
    public func store(
        _ image: Image?, data: Data? = nil, forKey key: String, attributes: CacheEntryAttributes = .none
    ) async throws(WebImageError) {
        try await store(image, data: data, forKey: key, attributes: attributes, in: .all)
    }

    /// Removes `key` from every tier.
    public func remove(forKey key: String) async { await remove(forKey: key, from: .all) }

    /// Whether any tier holds `key`.
    public func contains(_ key: String) async -> Bool { await contains(key, in: .all) != .none }
}
