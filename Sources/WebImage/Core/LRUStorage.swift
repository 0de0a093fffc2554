/// Values by key in least-recently-used order, bounded by a total cost and a count: a hash map into a doubly linked
/// list. Not thread-safe: its owner keeps it inside a ``Locked``.
///
/// The one LRU of the package: the library's ``MemoryImageCache`` keeps decoded images in it, the server its encoded
/// results. Every operation is O(1) except eviction, which is O(evicted) and amortised O(1) per insertion.
package struct LRUStorage<Key: Hashable, Value>: ~Copyable {
    /// One entry. Nodes are reachable from ``map`` while linked; both links are cleared on unlinking, so no
    /// retain cycle outlives an entry.
    private final class Node {
        let key: Key
        var value: Value
        var cost: Int
        var prev: Node?
        var next: Node?

        init(key: Key, value: Value, cost: Int) {
            self.key = key
            self.value = value
            self.cost = cost
        }
    }

    /// The most total cost kept.
    package var costLimit: Int
    /// The most entries kept.
    package var countLimit: Int

    private var map: [Key: Node] = [:]
    /// Most recently used.
    private var head: Node?
    /// Least recently used: evicted first.
    private var tail: Node?
    /// The total cost of the entries kept.
    package private(set) var totalCost = 0

    /// An empty storage with these limits.
    package init(costLimit: Int, countLimit: Int = .max) {
        self.costLimit = costLimit
        self.countLimit = countLimit
    }

    /// The entries kept.
    package var count: Int { map.count }

    /// The keys from most to least recently used (for tests and diagnostics).
    package var keysByRecency: [Key] {
        var keys: [Key] = []
        var node = head
        while let current = node {
            keys.append(current.key)
            node = current.next
        }
        return keys
    }

    /// The value for `key`, now the most recently used.
    package mutating func value(forKey key: Key) -> Value? {
        guard let node = map[key] else { return nil }
        moveToFront(node)
        return node.value
    }

    /// Whether `key` is kept, without changing its recency.
    package func contains(_ key: Key) -> Bool { map[key] != nil }

    /// Inserts or replaces the value for `key`, then evicts least recently used entries over the limits, handing
    /// each to `evicted`. The caller decides what to do with a value that alone exceeds ``costLimit``.
    package mutating func set(
        _ value: Value, forKey key: Key, cost: Int, evicted: (Key, Value) -> Void = { _, _ in }
    ) {
        if let node = map[key] {
            totalCost += cost - node.cost
            node.value = value
            node.cost = cost
            moveToFront(node)
        } else {
            let node = Node(key: key, value: value, cost: cost)
            map[key] = node
            totalCost += cost
            pushFront(node)
        }
        trim(toCost: costLimit, count: countLimit, evicted: evicted)
    }

    /// Removes `key` and returns its value.
    @discardableResult
    package mutating func remove(forKey key: Key) -> Value? {
        guard let node = map.removeValue(forKey: key) else { return nil }
        unlink(node)
        totalCost -= node.cost
        return node.value
    }

    /// Evicts least recently used entries until the total cost is at most `cost` and the count at most `count`,
    /// handing each to `evicted`.
    package mutating func trim(toCost cost: Int, count: Int, evicted: (Key, Value) -> Void = { _, _ in }) {
        while let last = tail, totalCost > cost || map.count > count {
            map[last.key] = nil
            unlink(last)
            totalCost -= last.cost
            evicted(last.key, last.value)
        }
    }

    /// Empties the storage.
    package mutating func removeAll() {
        unlinkAll()
        map.removeAll()
        totalCost = 0
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

    private mutating func unlinkAll() {
        var node = head
        while let current = node {
            node = current.next
            current.prev = nil
            current.next = nil
        }
        head = nil
        tail = nil
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
