import Foundation
import Synchronization

/// The mediator: answers an ``ImageRequest`` from the memory cache, the disk cache or the loader, decodes,
/// transforms, stores, and never does the same work twice at once.
///
/// Identical requests in flight share one run (one download, one decode, one transform); each caller can cancel on
/// its own, and the last one out cancels the work. A memory hit is answered without suspending.
///
/// ```swift
/// let manager = ImageManager(configuration: .init(cache: ImageCache(namespace: "thumbnails")))
/// let context = ImageContext().with(ImageContextKeys.Transformer.self, Resize(to: PixelSize(width: 256, height: 256)))
/// let result = try await manager.image(for: ImageRequest(url: url, context: context))
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
    private let runs = Locked<[String: ImageRun]>([:])
    private let nextID = Atomic<Int>(0)

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
        try await perform(request, id: makeID(), events: .none)
    }

    /// Loads the image at `url`; see ``image(for:)-(ImageRequest)``.
    public func image(
        for url: URL, options: ImageOptions = [], context: ImageContext = ImageContext()
    ) async throws(WebImageError) -> ImageResult {
        try await image(for: ImageRequest(url: url, options: options, context: context))
    }

    /// Starts loading `request` and returns a task that streams progress and previews and can be cancelled.
    public func task(for request: ImageRequest) -> ImageTask {
        ImageTask(manager: self, request: request, id: makeID())
    }

    /// Forgets that `url` failed, so it loads again without ``ImageOptions/retryFailed``.
    public func removeFailedURL(_ url: URL) { failedURLs.remove(url) }

    /// Forgets every failed URL.
    public func removeAllFailedURLs() { failedURLs.removeAll() }

    /// Whether `url` is remembered as failed.
    public func isFailedURL(_ url: URL) -> Bool { failedURLs.contains(url) }

    /// The number of distinct runs in flight (identical requests share one).
    public var runningCount: Int { runs.withLock { $0.count } }

    /// Returns once every disk write started so far has finished (results are delivered before their disk write
    /// unless ``ImageOptions/waitStoreCache`` is set).
    public func waitForPendingStores() async { await pendingStores.waitAll() }

    /// Waits for pending disk writes and shuts down the HTTP client of the configured loaders. Call before the
    /// process exits.
    public func shutdown() async {
        await waitForPendingStores()
        let loaders = (configuration.loader as? ImageLoaders)?.loaders ?? [configuration.loader]
        for case let http as HTTPImageLoader in loaders { try? await http.shutdown() }
    }

    func makeID() -> Int { nextID.add(1, ordering: .relaxed).newValue }

    func cache(for request: ImageRequest) -> any ImageCaching {
        request.context[ImageContextKeys.Cache.self] ?? configuration.cache
    }

    /// Runs `request` for subscriber `id`: a memory hit at once, else joins (or starts) the run for its key.
    func perform(_ request: ImageRequest, id: Int, events: ImageTaskEvents) async throws(WebImageError) -> ImageResult {
        let start = ContinuousClock.now
        if !request.options.contains(.avoidDecode), let image = cachedImage(for: request) {
            var metrics = ImageMetrics()
            metrics.total = (ContinuousClock.now - start).seconds
            events.finish()
            return ImageResult(image: image, data: nil, cacheType: .memory, url: request.url, metrics: metrics)
        }
        if failedURLs.contains(request.url) && !request.options.contains(.retryFailed) {
            events.finish()
            throw WebImageError(
                .failedURL, "this URL failed before; set retryFailed to load it again", url: request.url)
        }
        if request.options.contains(.queryDiskDataSync), !request.options.contains(.fromLoaderOnly),
            !request.options.contains(.refreshCached)
        {
            let lookup = ImagePipeline(manager: self, request: request, run: ImageRun(key: "", onEmpty: {}))
            if let hit = try await lookup.cachedResult() {
                events.finish()
                return hit
            }
        }
        for _ in 0..<8 {
            let (run, isNew) = run(for: request)
            do {
                return try await withTaskCancellationHandler {
                    try await withCheckedThrowingContinuation { continuation in
                        if !run.subscribe(
                            id: id, priority: request.priority, events: events, continuation: continuation)
                        {
                            continuation.resume(throwing: RunFinished())
                        } else if isNew {
                            run.start { run in await ImagePipeline(manager: self, request: request, run: run).execute()
                            }
                        }
                    }
                } onCancel: {
                    run.unsubscribe(id: id)
                }
            } catch is RunFinished {
                continue
            } catch let error as WebImageError {
                throw error
            } catch {
                throw WebImageError(.cancelled, "the request was cancelled", url: request.url, underlying: error)
            }
        }
        throw WebImageError(.cancelled, "could not join a run for this request", url: request.url)
    }

    /// Changes the priority subscriber `id` asks for, in whatever run it waits on.
    func setPriority(_ priority: ImageLoadPriority, for id: Int, request: ImageRequest) {
        runs.withLock { $0[Self.runKey(for: request)] }?.setPriority(priority, for: id)
    }

    private func run(for request: ImageRequest) -> (ImageRun, Bool) {
        let key = Self.runKey(for: request)
        return runs.withLock { runs in
            if let run = runs[key] { return (run, false) }
            let run = ImageRun(key: key) { [weak self] in
                self?.runs.withLock { runs in
                    if runs[key] != nil { runs[key] = nil }
                }
            }
            runs[key] = run
            return (run, true)
        }
    }

    /// Requests share a run when they produce the same result: same finished-image key and the same switches
    /// that change what is produced.
    static func runKey(for request: ImageRequest) -> String {
        let shaping: ImageOptions = [
            .fromCacheOnly, .fromLoaderOnly, .refreshCached, .avoidDecode, .decodeFirstFrameOnly, .scaleDownLargeImages,
            .progressiveLoad, .cacheMemoryOnly,
        ]
        return "\(request.options.intersection(shaping).rawValue)|\(request.transformedCacheKey)"
    }
}

/// A run finished between being found and being joined; the caller joins a new one.
private struct RunFinished: Error {}

extension Duration {
    /// This duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
