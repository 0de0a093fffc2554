import Foundation
import Testing
import WebImageTesting

@testable import WebImage

/// Identical requests share one download, one decode and one transform; cancelling is per caller.
@Suite struct ManagerCoalescingTests {
    @Test func hundredCallersShareOneDownloadDecodeAndTransform() async throws {
        try await withManager { harness in
            let transformer = CountingTransformer()
            let url = harness.url("/photo.jpg?gate=open")
            let results = try await withThrowingTaskGroup(of: ImageResult.self) { group in
                for _ in 0..<100 {
                    group.addTask { try await harness.manager.image(for: url, transformer: transformer) }
                }
                await harness.server.waitForRequests("/photo.jpg")
                harness.server.openGate("open")
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.count == 100)
            #expect(Set(results.compactMap { $0.image.map(ObjectIdentifier.init) }).count == 1)
            #expect(harness.server.requestCount("/photo.jpg") == 1)
            #expect(harness.coder.decodes.load(ordering: .relaxed) == 1)
            #expect(transformer.runs.load(ordering: .relaxed) == 1)
        }
    }

    @Test func cancellingOneCallerLeavesTheOthers() async throws {
        try await withManager { harness in
            let url = harness.url("/photo.jpg?gate=hold")
            let first = harness.manager.task(for: ImageRequest(url: url))
            let second = harness.manager.task(for: ImageRequest(url: url))
            await harness.server.waitForRequests("/photo.jpg")
            first.cancel()
            await expectManagerError(.cancelled) { try await first.result }
            harness.server.openGate("hold")
            let result = try await second.result
            #expect(result.image != nil)
            #expect(harness.server.requestCount("/photo.jpg") == 1)
        }
    }

    @Test func cancellingEveryCallerStopsTheWork() async throws {
        try await withManager { harness in
            let url = harness.url("/photo.jpg?gate=held")
            let tasks = (0..<3).map { _ in harness.manager.task(for: ImageRequest(url: url)) }
            await harness.server.waitForRequests("/photo.jpg")
            #expect(harness.manager.runningCount == 1)
            for task in tasks { task.cancel() }
            for task in tasks { await expectManagerError(.cancelled) { try await task.result } }
            #expect(harness.manager.runningCount == 0)
            harness.server.openGate("held")
            await harness.server.waitUntil { ($0.aborted["/photo.jpg"] ?? 0) >= 1 || $0.inFlight == 0 }
            #expect(harness.coder.decodes.load(ordering: .relaxed) == 0)
            #expect(!harness.manager.isFailedURL(url))
        }
    }

    @Test func differentTransformersDoNotShareARun() async throws {
        try await withManager { harness in
            let url = harness.url("/photo.jpg")
            async let a = harness.manager.image(for: url, transformer: CountingTransformer(size: 4))
            async let b = harness.manager.image(for: url, transformer: CountingTransformer(size: 6))
            let (first, second) = try await (a, b)
            #expect(first.image?.size == PixelSize(width: 4, height: 4))
            #expect(second.image?.size == PixelSize(width: 6, height: 6))
        }
    }

    @Test func priorityChangesReachAWaitingDownload() async throws {
        try await withManager(.init(maxConcurrentDownloads: 1)) { harness in
            let blocker = harness.manager.task(for: ImageRequest(url: harness.url("/generated/block?gate=block")))
            await harness.server.waitForRequests("/generated/block")
            let low = harness.manager.task(
                for: ImageRequest(url: harness.url("/generated/a?size=1000"), options: .lowPriority))
            let raised = harness.manager.task(
                for: ImageRequest(url: harness.url("/generated/b?size=1000"), options: .lowPriority))
            await harness.loader.waitUntil { $0.waiting == 2 }
            raised.setPriority(.high)
            harness.server.openGate("block")
            _ = try? await blocker.result
            _ = try? await low.result
            _ = try? await raised.result
            let order = harness.server.stats.log.filter { $0.hasPrefix("/generated/a") || $0.hasPrefix("/generated/b") }
            #expect(order.first?.hasPrefix("/generated/b") == true, "\(order)")
        }
    }

    @Test func aMissLooksInMemoryOnceBeforeItsRun() async throws {
        try await withManager { harness in
            let counting = MemoryLookupCountingCache(harness.cache)
            let context = ImageContext().with(ImageContextKeys.Cache.self, counting)
            let request = ImageRequest(url: harness.url("/photo.jpg"), context: context)
            let done = await withCheckedContinuation { continuation in
                harness.manager.loadImage(with: request) { continuation.resume(returning: $0) }
            }
            #expect(try done.get().cacheType == ImageCacheType.none)
            #expect(counting.lookups.load(ordering: .relaxed) == 1, "loadImage looked, the task did not look again")
            _ = try await harness.manager.task(for: request).result
            #expect(counting.lookups.load(ordering: .relaxed) == 2, "a task of its own looks once")
        }
    }

    @Test func callbackCompletionIsCalledExactlyOnce() async throws {
        try await withManager { harness in
            let url = harness.url("/photo.jpg")
            let (stream, sink) = AsyncStream.makeStream(of: Result<ImageResult, WebImageError>.self)
            harness.manager.loadImage(with: url) { sink.yield($0) }
            var iterator = stream.makeAsyncIterator()
            let first = await iterator.next()
            let firstType = try first?.get().cacheType
            #expect(firstType == ImageCacheType.none)
            let hit = Locked<[ImageCacheType]>([])
            harness.manager.loadImage(with: url) { result in
                hit.withLock { $0.append((try? result.get().cacheType) ?? ImageCacheType.none) }
            }
            #expect(hit.withLock { $0 } == [.memory], "a memory hit completes before loadImage returns")
            let cancelled = harness.manager.loadImage(with: harness.url("/photo.jpg?gate=x")) { sink.yield($0) }
            cancelled.cancel()
            let second = await iterator.next()
            if case .success? = second { Issue.record("a cancelled task completed with an image") }
            harness.server.openGate("x")
        }
    }
}
