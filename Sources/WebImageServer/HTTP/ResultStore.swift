import Foundation
import NIOConcurrencyHelpers
import WebImage

/// A finished result as the cache keeps it.
struct StoredResult: Sendable {
    var data: Data
    var format: ImageFormat
    /// When the result was made, for `Last-Modified`.
    var created: Date
}

/// Results by identity: the library's cache (disk when configured), and one shared run per identity in flight, so
/// identical concurrent requests make one fetch and one processing run.
final class ResultStore: Sendable {
    private let cache: any ImageCaching
    private let tiers: ImageCacheType
    /// The runs in flight by key (`NIOLockedValueBox`: the library's `Locked` is internal to it).
    private let running = NIOLockedValueBox<[String: Task<StoredResult, any Error>]>([:])
    /// How many results have been made (fetched and processed) since the start, for monitoring.
    private let made = NIOLockedValueBox(0)

    /// How many results have been made since the start: cache hits and joined runs do not count.
    var madeCount: Int { made.withLockedValue { $0 } }

    init(cache: any ImageCaching, tiers: ImageCacheType) {
        self.cache = cache
        self.tiers = tiers
    }

    /// The cached result for `key`, if any, without making it.
    func cached(_ key: String) async -> StoredResult? {
        guard !tiers.isEmpty, let hit = await cache.query(forKey: key, in: tiers, decode: false),
            let data = hit.data
        else { return nil }
        return StoredResult(
            data: data, format: hit.metadata?.format ?? ImageFormat.sniff(data),
            created: hit.metadata?.created ?? Date())
    }

    /// The result for `key`: cached, joined from a run in flight, or made by `make` (once for all callers).
    func result(
        for key: String, make: @escaping @Sendable () async throws(ImageServerError) -> ProcessedImage
    ) async throws(ImageServerError) -> StoredResult {
        if let hit = await cached(key) { return hit }
        let task = running.withLockedValue { running in
            if let task = running[key] { return task }
            let task = Task<StoredResult, any Error> { [cache, tiers] in
                defer { self.running.withLockedValue { $0[key] = nil } }
                if let hit = await self.cached(key) { return hit }  // stored by a run that just finished
                self.made.withLockedValue { $0 += 1 }
                let result = try await make()
                let stored = StoredResult(data: result.data, format: result.format, created: Date())
                if !tiers.isEmpty {
                    try? await cache.store(
                        nil, data: result.data, forKey: key,
                        attributes: CacheEntryAttributes(format: result.format), in: tiers)
                }
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
}
