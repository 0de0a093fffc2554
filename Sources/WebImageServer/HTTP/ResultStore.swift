import Foundation
import NIOConcurrencyHelpers
import WebImage

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
    case memory, disk, miss
}

/// Results by identity: a memory tier of encoded results, the library's cache (disk when configured), and one
/// shared run per identity in flight, so identical concurrent requests make one fetch and one processing run.
final class ResultStore: Sendable {
    private let cache: any ImageCaching
    private let tiers: ImageCacheType
    let memory: ResultMemoryCache
    /// The runs in flight by key (`NIOLockedValueBox`: the library's `Locked` is internal to it).
    private let running = NIOLockedValueBox<[String: Task<StoredResult, any Error>]>([:])
    /// How many results have been made (fetched and processed) since the start, for monitoring.
    private let made = NIOLockedValueBox(0)

    /// How many results have been made since the start: cache hits and joined runs do not count.
    var madeCount: Int { made.withLockedValue { $0 } }

    init(cache: any ImageCaching, tiers: ImageCacheType, memoryBytes: Int) {
        self.cache = cache
        self.tiers = tiers
        memory = ResultMemoryCache(byteLimit: memoryBytes)
    }

    /// The cached result for `key`, if any, without making it: memory first, then the library's tiers.
    func cached(_ key: String) async -> (StoredResult, ResultSource)? {
        if let hit = memory.result(forKey: key) { return (hit, .memory) }
        guard !tiers.isEmpty, let hit = await cache.query(forKey: key, in: tiers, decode: false),
            let data = hit.data
        else { return nil }
        let result = StoredResult(
            data: data, format: hit.metadata?.format ?? ImageFormat.sniff(data),
            created: hit.metadata?.created ?? Date(), sourceLastModified: hit.metadata?.lastModified)
        memory.set(result, forKey: key)
        return (result, .disk)
    }

    /// The result for `key`: cached, joined from a run in flight, or made by `make` (once for all callers).
    func result(
        for key: String, make: @escaping @Sendable () async throws(ImageServerError) -> ProcessedImage
    ) async throws(ImageServerError) -> (StoredResult, ResultSource) {
        if let hit = await cached(key) { return hit }
        let task = running.withLockedValue { running in
            if let task = running[key] { return task }
            let task = Task<StoredResult, any Error> { [cache, tiers, memory] in
                defer { self.running.withLockedValue { $0[key] = nil } }
                if let hit = await self.cached(key)?.0 { return hit }  // stored by a run that just finished
                self.made.withLockedValue { $0 += 1 }
                let result = try await make()
                let stored = StoredResult(
                    data: result.data, format: result.format, created: Date(),
                    sourceLastModified: result.sourceLastModified)
                memory.set(stored, forKey: key)
                if !tiers.isEmpty {
                    let attributes = CacheEntryAttributes(
                        format: result.format, lastModified: result.sourceLastModified)
                    try? await cache.store(nil, data: result.data, forKey: key, attributes: attributes, in: tiers)
                }
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
}
