import Foundation
import NIOConcurrencyHelpers
import WebImage
import WebImageStores

/// A finished result as the cache keeps it.
struct StoredResult: Sendable {
    var data: Data
    var format: ImageFormat
    /// `Last-Modified` of the response: the origin's when it sent one, otherwise when the result was made.
    let lastModified: Date
    /// ``lastModified`` as the header's text, formatted once (a `DateFormatter` is slow to make).
    let lastModifiedHeader: String
    /// The origin's `Last-Modified`, when it sent one.
    let sourceLastModified: String?

    init(data: Data, format: ImageFormat, created: Date, sourceLastModified: String?) {
        self.data = data
        self.format = format
        self.sourceLastModified = sourceLastModified
        lastModified = sourceLastModified.flatMap(HTTPDate.date) ?? created
        lastModifiedHeader = HTTPDate.string(lastModified)
    }
}

/// Where a result came from, for the metrics and the request log.
enum ResultSource: String, Sendable {
    case memory, disk, shared, miss
}

/// Results by identity: a memory tier of encoded results, the library's cache (disk when configured), the cluster's
/// shared tier when there is one, and one shared run per identity in flight, so identical concurrent requests make one
/// fetch and one processing run.
final class ResultStore: Sendable {
    private let cache: any ImageCaching
    private let tiers: ImageCacheType
    private let shared: SharedStore?
    let memory: ResultMemoryCache
    /// The local keys of the results served since the start, by source, for a purge (`NIOLockedValueBox`).
    private let keysBySource = NIOLockedValueBox<[String: Set<String>]>([:])
    /// The runs in flight by key (`NIOLockedValueBox`: the library's `Locked` is internal to it).
    private let running = NIOLockedValueBox<[String: Task<StoredResult, any Error>]>([:])
    /// How many results have been made (fetched and processed) since the start, for monitoring.
    private let made = NIOLockedValueBox(0)

    /// How many results have been made since the start: cache hits and joined runs do not count.
    var madeCount: Int { made.withLockedValue { $0 } }

    init(cache: any ImageCaching, tiers: ImageCacheType, memoryBytes: Int, shared: SharedStore? = nil) {
        self.cache = cache
        self.tiers = tiers
        self.shared = shared
        memory = ResultMemoryCache(byteLimit: memoryBytes)
    }

    /// The cached result `id`, if any, without making it: memory, then the library's tiers, then the shared tier (a
    /// hit from a slower tier is kept in the faster ones).
    func cached(_ id: ResultID) async -> (StoredResult, ResultSource)? {
        if let hit = memory.result(forKey: id.key) { return (hit, .memory) }
        if !tiers.isEmpty, let hit = await cache.query(forKey: id.key, in: tiers, decode: false), let data = hit.data {
            let result = StoredResult(
                data: data, format: hit.metadata?.format ?? ImageFormat.sniff(data),
                created: hit.metadata?.created ?? Date(), sourceLastModified: hit.metadata?.lastModified)
            remember(id)
            memory.set(result, forKey: id.key)
            return (result, .disk)
        }
        guard let shared, let object = await shared.result(source: id.source, identity: id.identity) else {
            return nil
        }
        let created = object.metadata["created"].flatMap(Double.init).map(Date.init(timeIntervalSince1970:)) ?? Date()
        let stored = StoredResult(
            data: object.data, format: ImageFormat.sniff(object.data), created: created,
            sourceLastModified: object.metadata["source-last-modified"])
        await keepLocally(stored, id)
        return (stored, .shared)
    }

    /// Drops every result of `source` this node has served since the start from its caches; returns how many.
    func forget(source: String) async -> Int {
        let keys = keysBySource.withLockedValue { $0.removeValue(forKey: source) } ?? []
        for key in keys {
            memory.remove(forKey: key)
            await cache.remove(forKey: key, from: tiers)
        }
        return keys.count
    }

    /// The result `id`: cached, joined from a run in flight, or made by `make` (once for all callers).
    func result(
        for id: ResultID, make: @escaping @Sendable () async throws(ImageServerError) -> ProcessedImage
    ) async throws(ImageServerError) -> (StoredResult, ResultSource) {
        let key = id.key
        if let hit = await cached(id) { return hit }
        let task = running.withLockedValue { running in
            if let task = running[key] { return task }
            let task = Task<StoredResult, any Error> {
                defer { self.running.withLockedValue { $0[key] = nil } }
                if let hit = await self.cached(id)?.0 { return hit }  // stored by a run that just finished
                self.made.withLockedValue { $0 += 1 }
                let result = try await make()
                let stored = StoredResult(
                    data: result.data, format: result.format, created: Date(),
                    sourceLastModified: result.sourceLastModified)
                await self.keepLocally(stored, id)
                var metadata = ["created": String(Int(stored.lastModified.timeIntervalSince1970))]
                if let modified = result.sourceLastModified { metadata["source-last-modified"] = modified }
                await self.shared?.storeResult(
                    result.data, contentType: result.format.mimeType, metadata: metadata, source: id.source,
                    identity: id.identity)
                return stored
            }
            running[key] = task
            return task
        }
        do {
            return (try await task.value, .miss)
        } catch let error as ImageServerError {
            throw error
        } catch {
            throw ImageServerError(status: 500, "processing failed")
        }
    }

    /// Keeps a result in memory and on disk, and remembers it under its source for a purge.
    private func keepLocally(_ stored: StoredResult, _ id: ResultID) async {
        remember(id)
        memory.set(stored, forKey: id.key)
        guard !tiers.isEmpty else { return }
        let attributes = CacheEntryAttributes(format: stored.format, lastModified: stored.sourceLastModified)
        try? await cache.store(nil, data: stored.data, forKey: id.key, attributes: attributes, in: tiers)
    }

    private func remember(_ id: ResultID) {
        keysBySource.withLockedValue { _ = $0[id.source, default: []].insert(id.key) }
    }
}
