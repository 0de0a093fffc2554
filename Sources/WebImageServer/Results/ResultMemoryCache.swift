import WebImage

/// Encoded results in memory, least recently used first out, bounded by their total bytes: the package's
/// ``LRUStorage`` under one lock.
///
/// The fast path of the server: a hit is a dictionary lookup under a lock, no suspension, no disk.
final class ResultMemoryCache: Sendable {
    /// The most bytes kept.
    let byteLimit: Int
    private let storage: Locked<LRUStorage<ResultKey, StoredResult>>

    init(byteLimit: Int) {
        self.byteLimit = max(0, byteLimit)
        storage = Locked(LRUStorage(costLimit: self.byteLimit))
    }

    /// The total bytes kept now.
    var totalBytes: Int { storage.withLock { $0.totalCost } }

    /// The result for `key`, now the most recently used.
    func result(forKey key: ResultKey) -> StoredResult? {
        storage.withLock { $0.value(forKey: key) }
    }

    /// Keeps `result` under `key`, evicting the least recently used until the total fits; a result larger than a
    /// quarter of the limit is not kept. Returns whether it was kept.
    @discardableResult
    func set(_ result: StoredResult, forKey key: ResultKey) -> Bool {
        let bytes = result.count
        guard byteLimit > 0, bytes <= byteLimit / 4 else { return false }
        storage.withLock { $0.set(result, forKey: key, cost: bytes) }
        return true
    }

    /// Forgets `key`; returns whether it was kept.
    @discardableResult
    func remove(forKey key: ResultKey) -> Bool {
        storage.withLock { $0.remove(forKey: key) != nil }
    }
}
