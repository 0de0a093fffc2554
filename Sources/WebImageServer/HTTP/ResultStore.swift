import Foundation
import NIOConcurrencyHelpers
import WebImage
import WebImageStores

/// A finished result as the cache keeps it.
struct StoredResult: Sendable {
    var data: Data
    var format: ImageFormat
    /// When the result was made, for `Last-Modified`.
    var created: Date
}

/// Results by identity: the library's cache (disk when configured), then the cluster's shared tier when there is one,
/// and one shared run per identity in flight, so identical concurrent requests make one fetch and one processing run.
final class ResultStore: Sendable {
    private let cache: any ImageCaching
    private let tiers: ImageCacheType
    private let shared: SharedStore?
    /// The local keys of the results served since the start, by source, for a purge (`NIOLockedValueBox`).
    private let keysBySource = NIOLockedValueBox<[String: Set<String>]>([:])
    /// The runs in flight by key (`NIOLockedValueBox`: the library's `Locked` is internal to it).
    private let running = NIOLockedValueBox<[String: Task<StoredResult, any Error>]>([:])
    /// How many results have been made (fetched and processed) since the start, for monitoring.
    private let made = NIOLockedValueBox(0)

    /// How many results have been made since the start: cache hits and joined runs do not count.
    var madeCount: Int { made.withLockedValue { $0 } }

    init(cache: any ImageCaching, tiers: ImageCacheType, shared: SharedStore? = nil) {
        self.cache = cache
        self.tiers = tiers
        self.shared = shared
    }

    /// The cached result `id`, if any, without making it: the node's own caches, then the shared tier (a shared hit
    /// is kept locally too).
    func cached(_ id: ResultID) async -> StoredResult? {
        if !tiers.isEmpty, let hit = await cache.query(forKey: id.key, in: tiers, decode: false), let data = hit.data {
            remember(id)
            return StoredResult(
                data: data, format: hit.metadata?.format ?? ImageFormat.sniff(data),
                created: hit.metadata?.created ?? Date())
        }
        guard let shared, let object = await shared.result(source: id.source, identity: id.identity) else {
            return nil
        }
        let created = object.metadata["created"].flatMap(Double.init).map(Date.init(timeIntervalSince1970:)) ?? Date()
        let stored = StoredResult(data: object.data, format: ImageFormat.sniff(object.data), created: created)
        await keepLocally(stored, id)
        return stored
    }

    /// Drops every result of `source` this node has served since the start from its caches; returns how many.
    func forget(source: String) async -> Int {
        let keys = keysBySource.withLockedValue { $0.removeValue(forKey: source) } ?? []
        for key in keys { await cache.remove(forKey: key, from: tiers) }
        return keys.count
    }

    /// The result `id`: cached, joined from a run in flight, or made by `make` (once for all callers).
    func result(
        for id: ResultID, make: @escaping @Sendable () async throws(ImageServerError) -> ProcessedImage
    ) async throws(ImageServerError) -> StoredResult {
        let key = id.key
        if let hit = await cached(id) { return hit }
        let task = running.withLockedValue { running in
            if let task = running[key] { return task }
            let task = Task<StoredResult, any Error> {
                defer { self.running.withLockedValue { $0[key] = nil } }
                if let hit = await self.cached(id) { return hit }  // stored by a run that just finished
                self.made.withLockedValue { $0 += 1 }
                let result = try await make()
                let stored = StoredResult(data: result.data, format: result.format, created: Date())
                await self.keepLocally(stored, id)
                let created = String(Int(stored.created.timeIntervalSince1970))
                await self.shared?.storeResult(
                    result.data, contentType: result.format.mimeType, metadata: ["created": created],
                    source: id.source, identity: id.identity)
                return stored
            }
            running[key] = task
            return task
        }
        do {
            return try await task.value
        } catch let error as ImageServerError {
            throw error
        } catch {
            throw ImageServerError(status: 500, "processing failed")
        }
    }

    private func keepLocally(_ stored: StoredResult, _ id: ResultID) async {
        remember(id)
        guard !tiers.isEmpty else { return }
        try? await cache.store(
            nil, data: stored.data, forKey: id.key,
            attributes: CacheEntryAttributes(format: stored.format), in: tiers)
    }

    private func remember(_ id: ResultID) {
        keysBySource.withLockedValue { _ = $0[id.source, default: []].insert(id.key) }
    }
}
