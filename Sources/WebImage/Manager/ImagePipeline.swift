import Foundation
import Metrics
import Tracing

/// One execution of the flow for a request: cache query, load, decode, transform, store.
///
/// Runs as the body of a run (``SharedWork``) that every identical request shares; pixel work goes through the
/// manager's ``WorkQueue``.
struct ImagePipeline: Sendable {
    let manager: ImageManager
    let request: ImageRequest
    /// The run this pipeline is the body of; `nil` for a cache lookup before joining one.
    let run: SharedWork<ImageResult, RunEvent, WebImageError>?

    var options: ImageOptions { request.options }
    var context: ImageContext { request.context }
    private var cache: any ImageCaching { manager.cache(for: request) }
    var coders: any ImageCoding { context[ImageContextKeys.Coders.self] ?? manager.configuration.coders }
    var transformer: (any ImageTransforming)? { request.transformer }

    func execute() async -> Result<ImageResult, WebImageError> {
        let start = ContinuousClock.now
        var metrics = ImageMetrics()
        do throws(WebImageError) {
            var result = try await produce(&metrics)
            metrics.total = (ContinuousClock.now - start).seconds
            result.metrics = metrics
            record(metrics, cacheType: result.cacheType)
            return recorded(.success(result))
        } catch {
            let failure = error.url == nil ? error.with(url: request.url) : error
            manager.configuration.logger.debug(
                "image load failed", metadata: ["url": "\(request.url)", "error": "\(failure)"])
            return recorded(.failure(failure))
        }
    }

    /// `outcome`, once the failed-URL set has learnt from it.
    private func recorded(_ outcome: Result<ImageResult, WebImageError>) -> Result<ImageResult, WebImageError> {
        manager.failedURLs.record(outcome, for: request.url, remembers: manager.configuration.remembersFailedURLs)
        return outcome
    }

    /// The result from the caches alone (memory, then disk), or `nil` on a miss; for
    /// ``ImageOptions/queryDiskDataSync``, which looks on disk in the caller's task before joining a run.
    func cachedResult() async throws(WebImageError) -> ImageResult? {
        let start = ContinuousClock.now
        var metrics = ImageMetrics()
        guard var result = try await queryCaches(&metrics) else { return nil }
        metrics.total = (ContinuousClock.now - start).seconds
        result.metrics = metrics
        record(metrics, cacheType: result.cacheType)
        return result
    }

    private func produce(_ metrics: inout ImageMetrics) async throws(WebImageError) -> ImageResult {
        let revalidating = options.contains(.refreshCached)
        if !options.contains(.fromLoaderOnly) && !revalidating, let hit = try await queryCaches(&metrics) {
            return hit
        }
        if options.contains(.fromCacheOnly) {
            throw WebImageError(.notCached, "fromCacheOnly is set and no cache has this image", url: request.url)
        }
        let cached =
            revalidating
            ? await timed(&metrics.cacheQuery, span: "cache query") {
                await cache.query(forKey: request.cacheKey, in: queryTypes.intersection(.disk), decode: false)
            } : nil
        let clock = ContinuousClock.now
        let response = try await load(revalidating: cached)
        metrics.load = (ContinuousClock.now - clock).seconds
        if response.isNotModified {
            guard let data = cached?.data else {
                throw WebImageError(
                    .notModified, "the server answered 304 but no cached bytes are at hand", url: request.url)
            }
            return try await finish(
                data: data, attributes: attributes(of: cached), cacheType: .disk, storeOriginal: false, &metrics)
        }
        let attributes = CacheEntryAttributes(
            etag: response.etag, lastModified: response.lastModified, cacheControl: response.cacheControl,
            expiresHeader: response.expires)
        var result = try await finish(
            data: response.data, attributes: attributes, cacheType: .none, storeOriginal: true, &metrics)
        if response.fromSharedCache { result.dataSource = .sharedCache }
        return result
    }

    /// The finished image from memory or disk, or the original bytes from disk decoded and transformed.
    private func queryCaches(_ metrics: inout ImageMetrics) async throws(WebImageError) -> ImageResult? {
        let decode = !options.contains(.avoidDecode)
        let finishedKey = request.transformedCacheKey
        let hit = await timed(&metrics.cacheQuery, span: "cache query") {
            await cache.query(forKey: finishedKey, in: queryTypes, decode: false)
        }
        if let hit, hit.image != nil || !decode {
            return ImageResult(
                image: hit.image, data: hit.data, cacheType: hit.cacheType, url: request.url, metrics: metrics,
                dataSource: hit.cacheType == .memory ? .memory : .disk, validators: validators(of: hit))
        }
        if let data = hit?.data, let image = try await decodeCached(data, key: finishedKey, &metrics) {
            return ImageResult(
                image: image, data: data, cacheType: .disk, url: request.url, metrics: metrics, dataSource: .disk,
                validators: validators(of: hit))
        }
        guard finishedKey != request.cacheKey, queryTypes.contains(.disk) else { return nil }
        let original = await timed(&metrics.cacheQuery, span: "cache query") {
            await cache.query(forKey: request.cacheKey, in: .disk, decode: false)
        }
        guard let data = original?.data else { return nil }
        return try await finish(
            data: data, attributes: attributes(of: original), cacheType: .disk, storeOriginal: false, &metrics)
    }

    /// Decodes a finished image found on disk on the work queue and promotes it to memory; `nil` (and the entry
    /// evicted) when the bytes do not decode, so a corrupt entry is never served.
    private func decodeCached(
        _ data: Data, key: String, _ metrics: inout ImageMetrics
    ) async throws(WebImageError) -> Image? {
        let decoding = plainDecodingOptions
        let (coders, workQueue, logger) = (coders, manager.workQueue, manager.configuration.logger)
        let clock = ContinuousClock.now
        let image = try await cache.decodeDiskHit(
            forKey: key, promote: queryTypes.contains(.memory),
            evicted: { error in
                logger.warning(
                    "evicting a disk entry that does not decode", metadata: ["key": "\(key)", "error": "\(error)"])
            },
            { () throws(WebImageError) -> Image in
                try await workQueue.run { () throws(WebImageError) -> Image in
                    try coders.decode(data, options: decoding)
                }
            })
        if image != nil { metrics.decode = (ContinuousClock.now - clock).seconds }
        return image
    }

    /// Decodes, transforms and stores `data`, and makes the result.
    private func finish(
        data: Data, attributes: CacheEntryAttributes, cacheType: ImageCacheType, storeOriginal: Bool,
        _ metrics: inout ImageMetrics
    ) async throws(WebImageError) -> ImageResult {
        let dataSource: ImageDataSource = cacheType == .disk ? .disk : .origin
        let validators = ImageValidators(
            etag: attributes.etag, lastModified: attributes.lastModified, cacheControl: attributes.cacheControl,
            expires: attributes.expiresHeader)
        if options.contains(.avoidDecode) {
            if storeOriginal { await storeOnDisk(original: data, attributes: attributes, finished: nil, &metrics) }
            return ImageResult(
                image: nil, data: data, cacheType: cacheType, url: request.url, metrics: metrics,
                dataSource: dataSource, validators: validators)
        }
        let decoding = decodingOptions(for: data)
        let coders = coders
        var clock = ContinuousClock.now
        let workQueue = manager.workQueue
        let (decoded, sourceSize) = try await StageSpan.run("decode") { _ throws(WebImageError) in
            try await workQueue.run { () throws(WebImageError) -> (Image, PixelSize?) in
                let plan = try decoding()
                return (try coders.decode(data, options: plan.options), plan.sourceSize)
            }
        }
        metrics.decode = (ContinuousClock.now - clock).seconds
        var image = decoded
        if let transformer {
            clock = ContinuousClock.now
            image = try await StageSpan.run("transform") { _ throws(WebImageError) in
                try await workQueue.run { () throws(WebImageError) -> Image in
                    try Self.apply(transformer, to: decoded, sourceSize: sourceSize)
                }
            }
            metrics.transform = (ContinuousClock.now - clock).seconds
        }
        if storeTypes.contains(.memory) {
            clock = ContinuousClock.now
            await StageSpan.run("store") { _ in
                await store(image, data: nil, key: request.transformedCacheKey, attributes: .none, types: .memory)
            }
            metrics.store += (ContinuousClock.now - clock).seconds
        }
        let transformed = request.transformedCacheKey != request.cacheKey
        await storeOnDisk(
            original: storeOriginal ? data : nil, attributes: attributes, finished: transformed ? image : nil, &metrics)
        return ImageResult(
            image: image, data: data, cacheType: cacheType, url: request.url, metrics: metrics, dataSource: dataSource,
            validators: validators)
    }

    private var queryTypes: ImageCacheType { request.cachePolicy.query }

    private var storeTypes: ImageCacheType {
        let types = request.cachePolicy.store
        return options.contains(.cacheMemoryOnly) ? types.intersection(.memory) : types
    }

    private func validators(of result: ImageCacheResult?) -> ImageValidators {
        let metadata = result?.metadata
        return ImageValidators(
            etag: metadata?.etag, lastModified: metadata?.lastModified, cacheControl: metadata?.cacheControl,
            expires: metadata?.expiresHeader)
    }

    private func attributes(of result: ImageCacheResult?) -> CacheEntryAttributes {
        let metadata = result?.metadata
        return CacheEntryAttributes(
            etag: metadata?.etag, lastModified: metadata?.lastModified, cacheControl: metadata?.cacheControl,
            expiresHeader: metadata?.expiresHeader)
    }

    /// Writes the original bytes and the encoded finished image to disk: awaited with
    /// ``ImageOptions/waitStoreCache``, otherwise in the background (``ImageManager/waitForPendingStores()``).
    private func storeOnDisk(
        original: Data?, attributes: CacheEntryAttributes, finished: Image?, _ metrics: inout ImageMetrics
    ) async {
        guard storeTypes.contains(.disk), original != nil || finished != nil else { return }
        let pipeline = self
        let write: @Sendable () async -> Void = {
            if let original {
                await pipeline.store(
                    nil, data: original, key: pipeline.request.cacheKey, attributes: attributes, types: .disk)
            }
            if let finished { await pipeline.storeFinishedOnDisk(finished) }
        }
        if options.contains(.waitStoreCache) {
            let clock = ContinuousClock.now
            await StageSpan.run("store") { _ in await write() }
            metrics.store += (ContinuousClock.now - clock).seconds
        } else {
            manager.pendingStores.add(write)
        }
    }

    /// Writes the finished image to disk, encoded on the work queue when the cache says how
    /// (``ImageCaching/encodedForDisk(_:attributes:)``), so that encoding counts against the pixel work's width.
    private func storeFinishedOnDisk(_ image: Image) async {
        let cache = cache
        let key = request.transformedCacheKey
        let encoded: (data: Data, attributes: CacheEntryAttributes)?
        do {
            encoded = try await manager.workQueue.run { () throws(WebImageError) in
                try cache.encodedForDisk(image, attributes: .none)
            }
        } catch {
            manager.configuration.logger.warning(
                "encoding for the disk cache failed", metadata: ["key": "\(key)", "error": "\(error)"])
            return
        }
        if let encoded {
            await store(nil, data: encoded.data, key: key, attributes: encoded.attributes, types: .disk)
        } else {
            await store(image, data: nil, key: key, attributes: .none, types: .disk)
        }
    }

    private func store(
        _ image: Image?, data: Data?, key: String, attributes: CacheEntryAttributes, types: ImageCacheType
    ) async {
        do throws(WebImageError) {
            try await cache.store(image, data: data, forKey: key, attributes: attributes, in: types)
        } catch {
            manager.configuration.logger.warning(
                "cache store failed", metadata: ["key": "\(key)", "error": "\(error)"])
        }
    }

    /// Runs `body` in a span named `span`, adding its seconds to `total`.
    private func timed<T>(_ total: inout Double, span: String, _ body: () async -> T) async -> T {
        let clock = ContinuousClock.now
        let value = await StageSpan.run(span) { _ in await body() }
        total += (ContinuousClock.now - clock).seconds
        return value
    }

    private func record(_ metrics: ImageMetrics, cacheType: ImageCacheType) {
        let dimensions = [("source", cacheType.description)]
        Timer(label: "webimage.request.duration", dimensions: dimensions).recordSeconds(metrics.total)
        if metrics.load > 0 { Timer(label: "webimage.load.duration").recordSeconds(metrics.load) }
        if metrics.decode > 0 { Timer(label: "webimage.decode.duration").recordSeconds(metrics.decode) }
        Counter(label: "webimage.requests", dimensions: dimensions).increment()
    }

    /// Decodes a preview of the bytes received so far and hands it to the run's subscribers.
    func preview(_ data: Data) {
        let decoding = decodingOptions(for: data)
        guard let plan = try? decoding(), let image = try? coders.decodePartial(data, options: plan.options) else {
            return
        }
        let shown = transformer.flatMap { try? Self.apply($0, to: image, sourceSize: plan.sourceSize) } ?? image
        run?.send(.preview(shown))
    }
}
