import Foundation
import Synchronization

/// Loads images ahead of need so that later requests hit the caches (SDWebImage's `SDWebImagePrefetcher`).
///
/// Each prefetch runs at low priority (``ImageOptions/lowPriority`` is added), with at most ``maxConcurrent`` loads
/// at once. By default it fills the disk cache with the original bytes and keeps no decoded image in memory
/// (``ImageOptions/avoidDecode`` is added); set `keepsImagesInMemory` to decode and fill the memory cache too.
///
/// ```swift
/// let prefetcher = ImagePrefetcher(manager: manager)
/// let token = prefetcher.prefetch(urls) { print($0) }
/// let summary = await token.summary
/// print(summary.finished, summary.skipped, summary.failures.map(\.url))
/// ```
public final class ImagePrefetcher: Sendable {
    /// The manager that loads and caches.
    public let manager: ImageManager
    /// The most loads one prefetch runs at once.
    public let maxConcurrent: Int
    /// The options of every request (with ``ImageOptions/lowPriority``, ``ImageOptions/waitStoreCache`` so a
    /// finished URL is on disk, and, unless images are kept in memory, ``ImageOptions/avoidDecode`` added).
    public let options: ImageOptions
    /// The context of every request.
    public let context: ImageContext
    /// The cache tiers of every request (unless images are kept in memory, stored on disk only by default).
    public let cachePolicy: ImageCachePolicy
    /// Whether prefetched images are decoded and kept in the memory cache as well as on disk.
    public let keepsImagesInMemory: Bool
    private let running = Locked<[Int: ImagePrefetchToken]>([:])
    private let nextID = Atomic<Int>(0)

    /// Creates a prefetcher.
    ///
    /// - Parameters:
    ///   - manager: loads and caches every request. Default: ``ImageManager/shared``.
    ///   - maxConcurrent: the most loads one prefetch runs at once (at least 1). Default: 3.
    ///   - options: added to every request.
    ///   - context: used for every request.
    ///   - cachePolicy: used for every request; `nil` for all tiers, or disk only unless `keepsImagesInMemory`.
    ///   - keepsImagesInMemory: decode and store in memory too, instead of only the original bytes on disk.
    public init(
        manager: ImageManager = .shared, maxConcurrent: Int = 3, options: ImageOptions = [],
        context: ImageContext = ImageContext(), cachePolicy: ImageCachePolicy? = nil, keepsImagesInMemory: Bool = false
    ) {
        self.manager = manager
        self.maxConcurrent = max(1, maxConcurrent)
        self.keepsImagesInMemory = keepsImagesInMemory
        var options = options.union([.lowPriority, .waitStoreCache]).subtracting(.highPriority)
        var policy = cachePolicy ?? .default
        if !keepsImagesInMemory {
            options.insert(.avoidDecode)
            if cachePolicy == nil { policy.store = .disk }
        }
        self.options = options
        self.context = context
        self.cachePolicy = policy
    }

    /// Starts prefetching `urls`, in order, at most ``maxConcurrent`` at once, each with ``options``, ``context``
    /// and ``cachePolicy``.
    ///
    /// - Parameters:
    ///   - urls: the sources, loaded in this order.
    ///   - progress: called from a background thread each time a URL finishes or fails.
    ///   - completion: called once, from a background thread, when every URL is done or the prefetch is cancelled.
    /// - Returns: a token with the progress stream, the summary and ``ImagePrefetchToken/cancel()``.
    @discardableResult
    public func prefetch(
        _ urls: [URL], progress: (@Sendable (ImagePrefetchProgress) -> Void)? = nil,
        completion: (@Sendable (ImagePrefetchSummary) -> Void)? = nil
    ) -> ImagePrefetchToken {
        prefetch(
            urls.map { ImageRequest(url: $0, context: context) }, progress: progress, completion: completion)
    }

    /// Starts prefetching `requests` (with their transformers, thumbnail sizes, loader options, …), in order, at
    /// most ``maxConcurrent`` at once. Each runs at low priority with ``options`` added, and only in the cache tiers
    /// both its own policy and ``cachePolicy`` name.
    ///
    /// - Parameters:
    ///   - requests: the requests, loaded in this order.
    ///   - progress: called from a background thread each time a request finishes or fails.
    ///   - completion: called once, from a background thread, when every request is done or the prefetch is
    ///     cancelled.
    /// - Returns: a token with the progress stream, the summary and ``ImagePrefetchToken/cancel()``.
    @discardableResult
    public func prefetch(
        _ requests: [ImageRequest], progress: (@Sendable (ImagePrefetchProgress) -> Void)? = nil,
        completion: (@Sendable (ImagePrefetchSummary) -> Void)? = nil
    ) -> ImagePrefetchToken {
        let (stream, sink) = AsyncStream.makeStream(of: ImagePrefetchProgress.self, bufferingPolicy: .unbounded)
        let id = nextID.add(1, ordering: .relaxed).newValue
        let prepared = requests.map { request in
            var request = request
            request.options = request.options.union(options).subtracting(.highPriority)
            request.priority = .low
            request.cachePolicy.query = request.cachePolicy.query.intersection(cachePolicy.query)
            request.cachePolicy.store = request.cachePolicy.store.intersection(cachePolicy.store)
            return request
        }
        let job = PrefetchJob(requests: prepared, manager: manager, maxConcurrent: maxConcurrent)
        let urls = requests.map(\.url)
        return running.withLock { running in
            // The task removes its token under this same lock, so it cannot do so before the token is inserted.
            let work = Task { [self] () -> ImagePrefetchSummary in
                let summary = await job.run { counts in
                    sink.yield(counts)
                    progress?(counts)
                }
                sink.finish()
                self.running.withLock { _ = $0.removeValue(forKey: id) }
                completion?(summary)
                return summary
            }
            let token = ImagePrefetchToken(urls: urls, progress: stream, work: work)
            running[id] = token
            return token
        }
    }

    /// Prefetches `urls` and returns the summary; cancelling the calling task cancels the prefetch.
    public func prefetchAndWait(_ urls: [URL]) async -> ImagePrefetchSummary {
        let token = prefetch(urls, progress: nil, completion: nil)
        return await withTaskCancellationHandler {
            await token.summary
        } onCancel: {
            token.cancel()
        }
    }

    /// Cancels every prefetch of this prefetcher that is still running.
    public func cancel() {
        for token in running.withLock({ Array($0.values) }) { token.cancel() }
    }

    /// The number of prefetches still running.
    public var runningCount: Int { running.withLock { $0.count } }
}
