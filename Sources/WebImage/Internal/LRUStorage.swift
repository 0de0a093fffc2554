/// The state of a ``MemoryImageCache``: a hash map into a doubly linked list ordered by recency, plus a table of weak
/// references to evicted images. Not thread-safe: the owning cache keeps it inside a `Locked`.
///
/// Every operation is O(1) except eviction, which is O(evicted) and amortised O(1) per insertion.
struct LRUStorage: ~Copyable {
    /// One entry. Nodes are reachable from ``map`` while linked; both links are cleared on unlinking, so no
    /// retain cycle outlives an entry.
    final class Node {
        let key: String
        var image: Image
        var cost: Int
        var prev: Node?
        var next: Node?

        init(key: String, image: Image, cost: Int) {
            self.key = key
            self.image = image
            self.cost = cost
        }
    }

    /// A weak reference to an evicted image.
    struct WeakImage {
        weak var image: Image?
    }

    var costLimit: Int
    var countLimit: Int
    let usesWeakTier: Bool

    private var map: [String: Node] = [:]
    /// Most recently used.
    private var head: Node?
    /// Least recently used: evicted first.
    private var tail: Node?
    private(set) var totalCost = 0
    private var weak: [String: WeakImage] = [:]
    /// The size of ``weak`` after its last pruning; dead references are pruned when it doubles.
    private var weakPruneMark = 64

    init(costLimit: Int, countLimit: Int, usesWeakTier: Bool) {
        self.costLimit = costLimit
        self.countLimit = countLimit
        self.usesWeakTier = usesWeakTier
    }

    var count: Int { map.count }

    /// Number of live and dead weak references (for tests).
    var weakCount: Int { weak.count }

    /// The keys from most to least recently used (for tests and diagnostics).
    var keysByRecency: [String] {
        var keys: [String] = []
        var node = head
        while let current = node {
            keys.append(current.key)
            node = current.next
        }
        return keys
    }

    /// The image for `key`, marking it most recently used. An evicted image still alive elsewhere is found in the
    /// weak tier and moved back into the LRU.
    mutating func image(forKey key: String) -> Image? {
        if let node = map[key] {
            moveToFront(node)
            return node.image
        }
        guard usesWeakTier, let box = weak[key] else { return nil }
        guard let image = box.image else {
            weak[key] = nil
            return nil
        }
        set(image, forKey: key, cost: image.cost)
        return image
    }

    /// Whether `key` is held strongly, or weakly and still alive, without changing its recency.
    func contains(_ key: String) -> Bool { map[key] != nil || weak[key]?.image != nil }

    /// Inserts or replaces the image for `key`, then evicts least recently used entries over the limits.
    mutating func set(_ image: Image, forKey key: String, cost: Int) {
        guard cost <= costLimit else {
            // Alone over the limit: holding it would evict everything else first. Keep it findable only weakly.
            remove(forKey: key)
            if usesWeakTier { weak[key] = WeakImage(image: image) }
            return
        }
        weak[key] = nil
        if let node = map[key] {
            totalCost += cost - node.cost
            node.image = image
            node.cost = cost
            moveToFront(node)
        } else {
            let node = Node(key: key, image: image, cost: cost)
            map[key] = node
            totalCost += cost
            pushFront(node)
        }
        trim(toCost: costLimit, count: countLimit)
    }

    /// Removes `key` from both tiers and returns the image it held strongly.
    @discardableResult
    mutating func remove(forKey key: String) -> Image? {
        weak[key] = nil
        guard let node = map.removeValue(forKey: key) else { return nil }
        unlink(node)
        totalCost -= node.cost
        return node.image
    }

    /// Evicts least recently used entries until the total cost is at most `cost` and the count at most `count`.
    /// Evicted images move to the weak tier.
    mutating func trim(toCost cost: Int, count: Int) {
        while let last = tail, totalCost > cost || map.count > count {
            map[last.key] = nil
            unlink(last)
            totalCost -= last.cost
            if usesWeakTier { weak[last.key] = WeakImage(image: last.image) }
        }
        pruneWeakIfNeeded()
    }

    /// Empties both tiers.
    mutating func removeAll() {
        var node = head
        while let current = node {
            node = current.next
            current.prev = nil
            current.next = nil
        }
        head = nil
        tail = nil
        map.removeAll()
        weak.removeAll()
        totalCost = 0
    }

    private mutating func pruneWeakIfNeeded() {
        guard weak.count > weakPruneMark else { return }
        weak = weak.filter { $0.value.image != nil }
        weakPruneMark = max(64, weak.count * 2)
    }

    private mutating func pushFront(_ node: Node) {
        node.prev = nil
        node.next = head
        head?.prev = node
        head = node
        if tail == nil { tail = node }
    }

    private mutating func moveToFront(_ node: Node) {
        guard head !== node else { return }
        unlink(node)
        pushFront(node)
    }

    private mutating func unlink(_ node: Node) {
        if let prev = node.prev { prev.next = node.next } else { head = node.next }
        if let next = node.next { next.prev = node.prev } else { tail = node.prev }
        node.prev = nil
        node.next = nil
    }

    deinit {
        var node = head
        while let current = node {
            node = current.next
            current.prev = nil
            current.next = nil
        }
    }
}
