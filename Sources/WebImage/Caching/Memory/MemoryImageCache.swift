import Foundation

/// An in-memory LRU cache of decoded images with a total-cost limit and a count limit.
///
/// Get and set are O(1): a hash map into a doubly linked list, guarded by one lock (a hit never suspends). When
/// an entry is evicted it moves to a weak second tier: as long as something else still holds the image, a lookup
/// finds it again and puts it back in the LRU (SDWebImage 5's weak cache). An image whose cost alone exceeds the
/// cost limit goes to the weak tier only.
///
/// Thread-safe; `Sendable` without `@unchecked`: all mutable state lives inside the `Locked` box.
public final class MemoryImageCache: Sendable {
    /// Limits and behaviour, fixed at creation.
    public struct Configuration: Sendable, Hashable {
        /// The maximum total cost (``Image/cost``, pixel bytes) held strongly.
        public var costLimit: Int
        /// The maximum number of images held strongly.
        public var countLimit: Int
        /// Whether evicted images are remembered weakly. Default: `true`.
        public var usesWeakTier: Bool

        /// Creates a configuration; by default the ``defaultCostLimit``, no count limit and a weak tier.
        public init(
            costLimit: Int = MemoryImageCache.defaultCostLimit, countLimit: Int = .max, usesWeakTier: Bool = true
        ) {
            self.costLimit = costLimit
            self.countLimit = countLimit
            self.usesWeakTier = usesWeakTier
        }
    }

    /// An eighth of physical memory, capped at 512 MiB.
    public static var defaultCostLimit: Int {
        let eighth = ProcessInfo.processInfo.physicalMemory / 8
        return Int(min(eighth, 512 * 1024 * 1024))
    }

    /// The limits this cache was created with.
    public let configuration: Configuration
    private let storage: Locked<MemoryImageStorage>

    /// Creates an empty cache.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        storage = Locked(
            MemoryImageStorage(
                costLimit: configuration.costLimit, countLimit: configuration.countLimit,
                usesWeakTier: configuration.usesWeakTier))
    }

    /// The image for `key`, or `nil`. Marks it most recently used; finds it in the weak tier if it was evicted but
    /// is still alive.
    public func image(forKey key: String) -> Image? {
        storage.withLock { $0.image(forKey: key) }
    }

    /// Stores `image` for `key`, replacing any previous image, then evicts least recently used images over the
    /// limits. `cost` defaults to ``Image/cost``.
    public func setImage(_ image: Image, forKey key: String, cost: Int? = nil) {
        let cost = cost ?? image.cost
        storage.withLock { $0.set(image, forKey: key, cost: cost) }
    }

    /// Removes the image for `key` from both tiers and returns it if it was held strongly.
    @discardableResult
    public func removeImage(forKey key: String) -> Image? {
        storage.withLock { $0.remove(forKey: key) }
    }

    /// Whether an image for `key` can be returned now (strongly held, or weakly held and alive). Does not change
    /// recency.
    public func containsImage(forKey key: String) -> Bool {
        storage.withLock { $0.contains(key) }
    }

    /// Removes every image from both tiers.
    public func removeAll() {
        storage.withLock { $0.removeAll() }
    }

    /// Evicts least recently used images until the total cost is at most `cost` (e.g. 0 on memory pressure).
    /// Evicted images stay findable through the weak tier while they are held elsewhere.
    public func trim(toCost cost: Int) {
        storage.withLock { $0.trim(toCost: cost, count: .max) }
    }

    /// Evicts least recently used images until at most `count` remain.
    public func trim(toCount count: Int) {
        storage.withLock { $0.trim(toCost: .max, count: count) }
    }

    /// The number of images held strongly.
    public var count: Int { storage.withLock { $0.count } }

    /// The total cost of the images held strongly.
    public var totalCost: Int { storage.withLock { $0.totalCost } }

    /// The keys held strongly, most recently used first.
    var keysByRecency: [String] { storage.withLock { $0.keysByRecency } }

    /// The number of weak references currently kept (live or not yet pruned); for tests.
    var weakReferenceCount: Int { storage.withLock { $0.weakCount } }
}

/// A memory cache alone is an ``ImageCaching`` of one tier, ``ImageCacheType/memory``; it ignores encoded bytes.
extension MemoryImageCache: ImageCaching {
    public func cachedImage(forKey key: String) -> Image? { image(forKey: key) }

    public func query(forKey key: String, in types: ImageCacheType, decode: Bool) async -> ImageCacheResult? {
        guard types.contains(.memory), let image = image(forKey: key) else { return nil }
        return ImageCacheResult(image: image, cacheType: .memory)
    }

    public func store(
        _ image: Image?, data: Data?, forKey key: String, attributes: CacheEntryAttributes, in types: ImageCacheType
    ) async throws(WebImageError) {
        guard types.contains(.memory), let image else { return }
        setImage(image, forKey: key)
    }

    public func remove(forKey key: String, from types: ImageCacheType) async {
        if types.contains(.memory) { removeImage(forKey: key) }
    }

    public func contains(_ key: String, in types: ImageCacheType) async -> ImageCacheType {
        types.contains(.memory) && containsImage(forKey: key) ? .memory : .none
    }

    public func removeAll(from types: ImageCacheType) async {
        if types.contains(.memory) { removeAll() }
    }

    public func count(in types: ImageCacheType) async -> Int { types.contains(.memory) ? count : 0 }

    public func totalSize(in types: ImageCacheType) async -> Int { types.contains(.memory) ? totalCost : 0 }

    /// Nothing to do: the limits are enforced on every insertion. Use ``trim(toCost:)`` on memory pressure.
    public func trim() async {}
}
