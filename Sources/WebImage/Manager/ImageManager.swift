import Foundation

/// The mediator: answers an ``ImageRequest`` from the memory cache, the disk cache or the loader, decodes,
/// transforms, stores, and never does the same work twice at once.
///
/// Identical requests in flight share one run (one download, one decode, one transform); each caller can cancel on
/// its own, and the last one out cancels the work. A memory hit is answered without suspending.
///
/// ```swift
/// let manager = ImageManager(configuration: .init(cache: ImageCache(namespace: "thumbnails")))
/// let request = ImageRequest(url: url, transformer: Resize(to: PixelSize(width: 256, height: 256)))
/// let result = try await manager.image(for: request)
/// print(result.image!.size, result.cacheType)
/// ```
public final class ImageManager: Sendable {
    /// A manager with the default configuration (HTTP/file/data loaders, the `default` cache namespace).
    public static let shared = ImageManager()

    /// The parts and policies this manager was made with.
    public let configuration: Configuration
    let failedURLs = FailedURLSet()
    let workQueue: WorkQueue
    let pendingStores = PendingStores()
    let runs = WorkMerger<RunKey, ImageResult, RunEvent, WebImageError>()

    /// Creates a manager.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        workQueue = WorkQueue(width: configuration.decodeConcurrency)
    }

    /// The finished image for `request` if the memory cache has it; never suspends, never touches the disk.
    public func cachedImage(for request: ImageRequest) -> Image? {
        guard !request.options.contains(.fromLoaderOnly), !request.options.contains(.refreshCached) else { return nil }
        return cache(for: request).cachedImage(forKey: request.transformedCacheKey)
    }

    /// Loads the image for `request`: memory, then disk, then the loader.
    ///
    /// - Throws: ``WebImageError``: ``WebImageError/Code/cancelled`` when the calling task is cancelled,
    ///   ``WebImageError/Code/failedURL`` for a URL that failed permanently before (unless
    ///   ``ImageOptions/retryFailed``), ``WebImageError/Code/notCached`` with ``ImageOptions/fromCacheOnly``, or the
    ///   loader's, decoder's or transformer's error.
    public func image(for request: ImageRequest) async throws(WebImageError) -> ImageResult {
        try await perform(request, subscriber: WorkSubscriber(priority: request.priority), events: .none)
    }

    /// Loads the image at `url`; see ``image(for:)-(ImageRequest)``.
    public func image(
        for url: URL, options: ImageOptions = [], transformer: (any ImageTransforming)? = nil,
        context: ImageContext = ImageContext()
    ) async throws(WebImageError) -> ImageResult {
        try await image(for: ImageRequest(url: url, options: options, transformer: transformer, context: context))
    }

    /// Starts loading `request` and returns a task that streams progress and previews and can be cancelled.
    public func task(for request: ImageRequest) -> ImageTask {
        ImageTask(manager: self, request: request)
    }

    /// Forgets that `url` failed, so it loads again without ``ImageOptions/retryFailed``.
    public func removeFailedURL(_ url: URL) { failedURLs.remove(url) }

    /// Forgets every failed URL.
    public func removeAllFailedURLs() { failedURLs.removeAll() }

    /// Whether `url` is remembered as failed.
    public func isFailedURL(_ url: URL) -> Bool { failedURLs.contains(url) }

    /// The number of distinct runs in flight (identical requests share one).
    public var runningCount: Int { runs.count }

    /// Callers waiting on runs in flight, for tests.
    var subscriberCount: Int { runs.subscriberCount() }

    /// Returns once every disk write started so far has finished (results are delivered before their disk write
    /// unless ``ImageOptions/waitStoreCache`` is set).
    public func waitForPendingStores() async { await pendingStores.waitAll() }

    /// Waits for pending disk writes and shuts down the HTTP client of the configured loaders. Call before the
    /// process exits.
    public func shutdown() async {
        await waitForPendingStores()
        try? await configuration.loader.shutdown()
    }

    func cache(for request: ImageRequest) -> any ImageCaching {
        request.context[ImageContextKeys.Cache.self] ?? configuration.cache
    }

    /// The memory-hit fast path, the one place that answers from memory without suspending: the finished image
    /// for `request` if the memory cache has it and the request may use it.
    func memoryHit(for request: ImageRequest) -> ImageResult? {
        guard !request.options.contains(.avoidDecode), let image = cachedImage(for: request) else { return nil }
        return ImageResult(
            image: image, data: nil, cacheType: .memory, url: request.url, metrics: ImageMetrics(), dataSource: .memory)
    }

    /// Runs `request` for `subscriber`: a memory hit at once (unless the caller has just missed, `checksMemory`
    /// false), else joins (or starts) the run for its key. The subscriber is made only on a miss, so a memory hit
    /// allocates nothing for it.
    func perform(
        _ request: ImageRequest, subscriber makeSubscriber: @autoclosure () -> WorkSubscriber<RunEvent>,
        events: ImageTaskEvents, checksMemory: Bool = true
    ) async throws(WebImageError) -> ImageResult {
        defer { events.finish() }
        let start = ContinuousClock.now
        if checksMemory, var hit = memoryHit(for: request) {
            hit.metrics.total = (ContinuousClock.now - start).seconds
            return hit
        }
        try failedURLs.check(request)
        if request.options.contains(.queryDiskDataSync), !request.options.contains(.fromLoaderOnly),
            !request.options.contains(.refreshCached)
        {
            let lookup = ImagePipeline(manager: self, request: request, run: nil)
            if let hit = try await lookup.cachedResult() { return hit }
        }
        do {
            return try await runs.value(for: Self.runKey(for: request), subscriber: makeSubscriber()) { _, run in
                return { await ImagePipeline(manager: self, request: request, run: run).execute() }
            }
        } catch {
            throw error.url == nil ? error.with(url: request.url) : error
        }
    }
}

/// What a run tells its subscribers while it works.
enum RunEvent: Sendable {
    /// Bytes received so far and the announced total.
    case progress(received: Int, expected: Int?)
    /// A preview decoded from the bytes so far.
    case preview(Image)
}

extension Duration {
    /// This duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
