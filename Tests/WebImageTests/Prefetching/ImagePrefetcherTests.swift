import Foundation
import Testing
import WebImageTesting

@testable import WebImage

/// `swift test --filter Prefetch` selects these.
@Suite("Prefetching")
struct ImagePrefetcherTests {
    @Test("counts finished and skipped URLs, reports progress after each, and lists the failures")
    func countsAndFailures() async throws {
        try await withManager { harness in
            let server = harness.server, manager = harness.manager
            let good = (1...3).map { server.url("\(ServedImages.alpha)?n=\($0)") }
            let bad = [server.url("/status/404?n=1"), server.url("/status/410")]
            let callbacks = Locked<[ImagePrefetchProgress]>([])
            let completions = Locked<[ImagePrefetchSummary]>([])
            let prefetcher = ImagePrefetcher(manager: manager)
            let token = prefetcher.prefetch(
                [good[0], bad[0], good[1], bad[1], good[2]],
                progress: { counts in callbacks.withLock { $0.append(counts) } },
                completion: { summary in completions.withLock { $0.append(summary) } })
            var streamed: [ImagePrefetchProgress] = []
            for await counts in token.progress { streamed.append(counts) }
            let summary = await token.summary

            #expect(summary.finished == 3)
            #expect(summary.skipped == 2)
            #expect(summary.total == 5)
            #expect(summary.cancelled == 0)
            #expect(Set(summary.failures.map(\.url)) == Set(bad))
            #expect(summary.failures.allSatisfy { $0.error.code == .badStatus })
            #expect(streamed.map(\.completed) == [1, 2, 3, 4, 5])
            #expect(streamed.last == ImagePrefetchProgress(finished: 3, skipped: 2, total: 5))
            #expect(callbacks.withLock { $0 } == streamed)
            #expect(completions.withLock { $0.count } == 1)
            #expect(prefetcher.runningCount == 0)
        }
    }

    @Test("never runs more than maxConcurrent loads at once, as the server sees them", arguments: [1, 3])
    func concurrencyLimit(maxConcurrent: Int) async throws {
        try await withManager { harness in
            let server = harness.server, manager = harness.manager
            let urls = (1...9).map { server.url("\(ServedImages.alpha)?gate=go&n=\($0)") }
            let prefetcher = ImagePrefetcher(manager: manager, maxConcurrent: maxConcurrent)
            let token = prefetcher.prefetch(urls)
            // All requests are held at the gate: if the limit leaked, more than maxConcurrent would pile up here.
            await server.waitUntil { $0.inFlight >= maxConcurrent }
            server.openGate("go")
            let summary = await token.summary
            #expect(summary.finished == 9)
            #expect(server.stats.maxInFlight == maxConcurrent)
            #expect(server.requestCount(ServedImages.alpha) == 9)
        }
    }

    @Test("loads at low priority: a normal request queued later downloads first")
    func lowPriority() async throws {
        try await withManager(.init(maxConcurrentDownloads: 1)) { harness in
            let server = harness.server, manager = harness.manager, loader = harness.loader
            let prefetcher = ImagePrefetcher(manager: manager)
            #expect(prefetcher.options.contains(.lowPriority))
            let blocker = manager.task(for: ImageRequest(url: server.url("\(ServedImages.photo)?gate=blocker")))
            await server.waitForRequests(ServedImages.photo)
            let token = prefetcher.prefetch([server.url(ServedImages.alpha)])
            await loader.waitUntil { $0.waiting >= 1 }
            let normal = manager.task(for: ImageRequest(url: server.url(ServedImages.small)))
            await loader.waitUntil { $0.waiting >= 2 }
            server.openGate("blocker")
            _ = try await blocker.result
            _ = try await normal.result
            #expect(await token.summary.finished == 1)
            let log = server.stats.log
            let normalIndex = try #require(log.firstIndex(of: ServedImages.small))
            let prefetchIndex = try #require(log.firstIndex(of: ServedImages.alpha))
            #expect(normalIndex < prefetchIndex, "\(log)")
        }
    }

    @Test("cancelling stops the running loads and never starts the waiting ones", arguments: [false, true])
    func cancelStopsPending(throughPrefetcher: Bool) async throws {
        try await withManager { harness in
            let server = harness.server, manager = harness.manager
            let urls = (1...6).map { server.url("\(ServedImages.alpha)?gate=never&n=\($0)") }
            let prefetcher = ImagePrefetcher(manager: manager, maxConcurrent: 2)
            let token = prefetcher.prefetch(urls)
            await server.waitForRequests(ServedImages.alpha, count: 2)
            if throughPrefetcher { prefetcher.cancel() } else { token.cancel() }
            let summary = await token.summary
            #expect(token.isCancelled)
            #expect(summary.finished == 0)
            #expect(summary.skipped == 0)
            #expect(summary.cancelled == 6)
            #expect(summary.wasCancelled)
            #expect(server.requestCount(ServedImages.alpha) == 2)
            #expect(prefetcher.runningCount == 0)
            #expect(manager.runningCount == 0)
        }
    }

    @Test("fills the disk cache with the original bytes and keeps nothing in memory by default")
    func fillsDiskOnly() async throws {
        try await withManager { harness in
            let server = harness.server, manager = harness.manager, cache = harness.cache
            let urls = [server.url(ServedImages.alpha), server.url(ServedImages.photo)]
            let summary = await ImagePrefetcher(manager: manager).prefetchAndWait(urls)
            #expect(summary.finished == 2)
            for url in urls {
                #expect(await cache.disk.contains(url.absoluteString))
                let original = try Fixtures.data(String(url.path.dropFirst("/fixtures/".count)))
                #expect(await cache.disk.data(forKey: url.absoluteString) == original)
            }
            #expect(cache.memory.count == 0)
            let next = try await manager.image(for: urls[0])
            #expect(next.cacheType == .disk)
            #expect(server.requestCount(ServedImages.alpha) == 1)
        }
    }

    @Test("keepsImagesInMemory decodes and fills the memory cache too")
    func keepsImagesInMemory() async throws {
        try await withManager { harness in
            let server = harness.server, manager = harness.manager, cache = harness.cache
            let urls = [server.url(ServedImages.alpha), server.url(ServedImages.photo)]
            let prefetcher = ImagePrefetcher(manager: manager, keepsImagesInMemory: true)
            #expect(!prefetcher.options.contains(.avoidDecode))
            let summary = await prefetcher.prefetchAndWait(urls)
            #expect(summary.finished == 2)
            for url in urls {
                #expect(cache.memory.containsImage(forKey: url.absoluteString))
                #expect(await cache.disk.contains(url.absoluteString))
            }
            let next = try await manager.image(for: urls[1])
            #expect(next.cacheType == .memory)
        }
    }

    @Test("undecodable bytes are skipped when images are kept in memory")
    func undecodableSkippedWhenDecoding() async throws {
        try await withManager { harness in
            let server = harness.server, manager = harness.manager
            let url = server.url("/generated/noise?size=2000")
            let summary = await ImagePrefetcher(manager: manager, keepsImagesInMemory: true).prefetchAndWait([url])
            #expect(summary.skipped == 1)
            #expect(summary.failures.first?.url == url)
        }
    }

    @Test("requests keep their loader options and transformer, at low priority, in the prefetcher's tiers")
    func requestsKeepWhatShapesThem() async throws {
        try await withManager { harness in
            let server = harness.server, manager = harness.manager
            let url = server.url(ServedImages.alpha)
            var loaderOptions = ImageLoaderOptions()
            loaderOptions.requestModifier = .bearer("prefetch-token")
            let request = ImageRequest(
                url: url, options: .highPriority, transformer: Crop(size: PixelSize(width: 4, height: 4)),
                loaderOptions: loaderOptions)
            let prefetcher = ImagePrefetcher(manager: manager, keepsImagesInMemory: true)
            let summary = await withCheckedContinuation { continuation in
                prefetcher.prefetch([request]) { continuation.resume(returning: $0) }
            }
            #expect(summary.finished == 1)
            #expect(server.stats.values(of: "Authorization", for: ServedImages.alpha) == ["Bearer prefetch-token"])
            let image = harness.cache.memory.image(forKey: request.transformedCacheKey)
            #expect(image?.size == PixelSize(width: 4, height: 4), "the transformed image is what was cached")

            let diskOnly = ImagePrefetcher(manager: manager)
            let other = ImageRequest(url: server.url(ServedImages.small), loaderOptions: loaderOptions)
            let second = await withCheckedContinuation { continuation in
                diskOnly.prefetch([other]) { continuation.resume(returning: $0) }
            }
            #expect(second.finished == 1)
            #expect(!harness.cache.memory.containsImage(forKey: other.cacheKey), "the disk-only policy narrows it")
            #expect(await harness.cache.disk.contains(other.cacheKey))
        }
    }

    @Test("an empty list completes at once")
    func emptyList() async throws {
        try await withManager { harness in
            let manager = harness.manager
            let summary = await ImagePrefetcher(manager: manager).prefetchAndWait([])
            #expect(summary.total == 0)
            #expect(summary.finished == 0)
            #expect(!summary.wasCancelled)
        }
    }
}
