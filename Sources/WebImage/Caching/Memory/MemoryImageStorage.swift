/// The state of a ``MemoryImageCache``: the package's ``LRUStorage`` of images, plus a table of weak references to
/// evicted images (SDWebImage 5's weak cache). Not thread-safe: the owning cache keeps it inside a ``Locked``.
struct MemoryImageStorage: ~Copyable {
    /// A weak reference to an evicted image.
    private struct WeakImage {
        weak var image: Image?
    }

    private var lru: LRUStorage<String, Image>
    let usesWeakTier: Bool
    private var weak: [String: WeakImage] = [:]
    /// The size of ``weak`` after its last pruning; dead references are pruned when it doubles.
    private var weakPruneMark = 64

    init(costLimit: Int, countLimit: Int, usesWeakTier: Bool) {
        lru = LRUStorage(costLimit: costLimit, countLimit: countLimit)
        self.usesWeakTier = usesWeakTier
    }

    var count: Int { lru.count }

    var totalCost: Int { lru.totalCost }

    /// Number of live and dead weak references (for tests).
    var weakCount: Int { weak.count }

    /// The keys from most to least recently used (for tests and diagnostics).
    var keysByRecency: [String] { lru.keysByRecency }

    /// The image for `key`, marking it most recently used. An evicted image still alive elsewhere is found in the
    /// weak tier and moved back into the LRU.
    mutating func image(forKey key: String) -> Image? {
        if let image = lru.value(forKey: key) { return image }
        guard usesWeakTier, let box = weak[key] else { return nil }
        guard let image = box.image else {
            weak[key] = nil
            return nil
        }
        set(image, forKey: key, cost: image.cost)
        return image
    }

    /// Whether `key` is held strongly, or weakly and still alive, without changing its recency.
    func contains(_ key: String) -> Bool { lru.contains(key) || weak[key]?.image != nil }

    /// Inserts or replaces the image for `key`, then evicts least recently used entries over the limits into the
    /// weak tier.
    mutating func set(_ image: Image, forKey key: String, cost: Int) {
        guard cost <= lru.costLimit else {
            // Alone over the limit: holding it would evict everything else first. Keep it findable only weakly.
            lru.remove(forKey: key)
            if usesWeakTier { weak[key] = WeakImage(image: image) }
            return
        }
        weak[key] = nil
        var evicted: [(String, Image)] = []
        lru.set(image, forKey: key, cost: cost) { evicted.append(($0, $1)) }
        keepWeakly(evicted)
    }

    /// Removes `key` from both tiers and returns the image it held strongly.
    @discardableResult
    mutating func remove(forKey key: String) -> Image? {
        weak[key] = nil
        return lru.remove(forKey: key)
    }

    /// Evicts least recently used entries until the total cost is at most `cost` and the count at most `count`.
    /// Evicted images move to the weak tier.
    mutating func trim(toCost cost: Int, count: Int) {
        var evicted: [(String, Image)] = []
        lru.trim(toCost: cost, count: count) { evicted.append(($0, $1)) }
        keepWeakly(evicted)
    }

    /// Empties both tiers.
    mutating func removeAll() {
        lru.removeAll()
        weak.removeAll()
    }

    private mutating func keepWeakly(_ evicted: [(String, Image)]) {
        if usesWeakTier {
            for (key, image) in evicted { weak[key] = WeakImage(image: image) }
        }
        guard weak.count > weakPruneMark else { return }
        weak = weak.filter { $0.value.image != nil }
        weakPruneMark = max(64, weak.count * 2)
    }
}
