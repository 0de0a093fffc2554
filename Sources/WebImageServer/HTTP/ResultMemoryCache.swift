import NIOConcurrencyHelpers

/// Encoded results in memory, least recently used first out, bounded by their total bytes.
///
/// The fast path of the server: a hit is a dictionary lookup under a lock, no suspension, no disk.
final class ResultMemoryCache: Sendable {
    private struct Node {
        var key: String
        var result: StoredResult
        var previous: Int?
        var next: Int?
    }

    /// A doubly linked list in an array (most recent at `head`) and an index from key to slot.
    private struct Storage {
        var nodes: [Node?] = []
        var free: [Int] = []
        var index: [String: Int] = [:]
        var head: Int?
        var tail: Int?
        var totalBytes = 0

        mutating func unlink(_ slot: Int) {
            guard let node = nodes[slot] else { return }
            if let previous = node.previous { nodes[previous]?.next = node.next } else { head = node.next }
            if let next = node.next { nodes[next]?.previous = node.previous } else { tail = node.previous }
            nodes[slot]?.previous = nil
            nodes[slot]?.next = nil
        }

        mutating func pushFront(_ slot: Int) {
            nodes[slot]?.next = head
            if let head { nodes[head]?.previous = slot }
            head = slot
            if tail == nil { tail = slot }
        }

        mutating func remove(_ slot: Int) {
            unlink(slot)
            if let node = nodes[slot] {
                index[node.key] = nil
                totalBytes -= node.result.data.count
            }
            nodes[slot] = nil
            free.append(slot)
        }
    }

    /// The most bytes kept.
    let byteLimit: Int
    /// The entries (`NIOLockedValueBox`: the library's `Locked` is internal to it).
    private let storage = NIOLockedValueBox(Storage())

    init(byteLimit: Int) { self.byteLimit = max(0, byteLimit) }

    /// The total bytes kept now.
    var totalBytes: Int { storage.withLockedValue { $0.totalBytes } }

    /// The result for `key`, now the most recently used.
    func result(forKey key: String) -> StoredResult? {
        storage.withLockedValue { storage in
            guard let slot = storage.index[key] else { return nil }
            storage.unlink(slot)
            storage.pushFront(slot)
            return storage.nodes[slot]?.result
        }
    }

    /// Keeps `result` under `key`, evicting the least recently used until the total fits; a result larger than a
    /// quarter of the limit is not kept.
    func set(_ result: StoredResult, forKey key: String) {
        let bytes = result.data.count
        guard byteLimit > 0, bytes <= byteLimit / 4 else { return }
        storage.withLockedValue { storage in
            if let slot = storage.index[key] { storage.remove(slot) }
            while storage.totalBytes + bytes > byteLimit, let tail = storage.tail { storage.remove(tail) }
            let node = Node(key: key, result: result, previous: nil, next: nil)
            let slot: Int
            if let reused = storage.free.popLast() {
                slot = reused
                storage.nodes[slot] = node
            } else {
                slot = storage.nodes.count
                storage.nodes.append(node)
            }
            storage.index[key] = slot
            storage.totalBytes += bytes
            storage.pushFront(slot)
        }
    }

    /// Forgets `key`; returns whether it was kept.
    @discardableResult
    func remove(forKey key: String) -> Bool {
        storage.withLockedValue { storage in
            guard let slot = storage.index[key] else { return false }
            storage.remove(slot)
            return true
        }
    }
}
