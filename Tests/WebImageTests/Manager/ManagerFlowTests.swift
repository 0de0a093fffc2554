import Foundation
import Testing
import WebImageTesting

@testable import WebImage

/// The flow: memory, then disk, then the network, with the source reported; options that steer it.
@Suite struct ManagerFlowTests {
    @Test func networkThenMemoryThenDisk() async throws {
        try await withManager { harness in
            let url = harness.url("/photo.jpg")
            let first = try await harness.manager.image(for: url, options: .waitStoreCache)
            #expect(first.cacheType == .none)
            #expect(first.image?.size == PixelSize(width: 640, height: 480))
            #expect(first.metrics.load > 0 && first.metrics.decode > 0)
            #expect(await harness.cache.disk.contains(url.absoluteString))
            let second = try await harness.manager.image(for: url)
            #expect(second.cacheType == .memory)
            #expect(second.image === first.image)
            let other = ManagerHarness.manager(
                loader: harness.loader, directory: harness.directory, coder: harness.coder)
            let third = try await other.image(for: url)
            #expect(third.cacheType == .disk)
            #expect(third.image?.size == first.image?.size)
            #expect(harness.server.requestCount("/photo.jpg") == 1)
        }
    }

    @Test func diskWritesFinishInTheBackgroundAndCanBeAwaited() async throws {
        try await withManager { harness in
            let urls = (0..<20).map { harness.url("/photo.jpg?n=\($0)") }
            for url in urls { _ = try await harness.manager.image(for: url) }
            await harness.manager.waitForPendingStores()
            for url in urls { #expect(await harness.cache.disk.contains(url.absoluteString)) }
        }
    }

    @Test func aDiskEntryThatDoesNotDecodeIsEvictedAndLoadedAgain() async throws {
        try await withManager { harness in
            let url = harness.url("/photo.jpg")
            try await harness.cache.disk.store(Data("not a jpeg".utf8), forKey: url.absoluteString)
            let result = try await harness.manager.image(for: url, options: .waitStoreCache)
            #expect(result.cacheType == .none)
            #expect(result.image?.size == PixelSize(width: 640, height: 480))
            #expect(harness.server.requestCount("/photo.jpg") == 1)
            #expect(await harness.cache.disk.data(forKey: url.absoluteString) == ManagerHarness.jpeg)
        }
    }

    @Test func queryDiskDataSyncAnswersADiskHitWithoutARun() async throws {
        try await withManager { harness in
            let url = harness.url("/photo.jpg")
            _ = try await harness.manager.image(for: url, options: .waitStoreCache)
            let probe = RunCountingCache(harness.cache, manager: harness.manager)
            let context = ImageContext().with(ImageContextKeys.Cache.self, probe)
            harness.cache.memory.removeAll()
            let sync = try await harness.manager.image(for: url, options: .queryDiskDataSync, context: context)
            #expect(sync.cacheType == .disk)
            #expect(probe.runsSeen == [0])
            harness.cache.memory.removeAll()
            let shared = try await harness.manager.image(for: url, context: context)
            #expect(shared.cacheType == .disk)
            #expect(probe.runsSeen == [0, 1])
            #expect(harness.server.requestCount("/photo.jpg") == 1)
        }
    }

    @Test func memoryHitIsSynchronous() async throws {
        try await withManager { harness in
            let request = ImageRequest(url: harness.url("/photo.jpg"))
            #expect(harness.manager.cachedImage(for: request) == nil)
            _ = try await harness.manager.image(for: request)
            #expect(harness.manager.cachedImage(for: request) != nil)
        }
    }

    @Test func fromCacheOnlyNeverLoads() async throws {
        try await withManager { harness in
            await expectManagerError(.notCached) {
                try await harness.manager.image(for: harness.url("/photo.jpg"), options: .fromCacheOnly)
            }
            #expect(harness.server.requestCount("/photo.jpg") == 0)
            _ = try await harness.manager.image(for: harness.url("/photo.jpg"))
            let cached = try await harness.manager.image(for: harness.url("/photo.jpg"), options: .fromCacheOnly)
            #expect(cached.cacheType == .memory)
        }
    }

    @Test func fromLoaderOnlySkipsTheCaches() async throws {
        try await withManager { harness in
            _ = try await harness.manager.image(for: harness.url("/photo.jpg"))
            let again = try await harness.manager.image(for: harness.url("/photo.jpg"), options: .fromLoaderOnly)
            #expect(again.cacheType == .none)
            #expect(harness.server.requestCount("/photo.jpg") == 2)
        }
    }

    @Test func avoidDecodeDeliversBytesOnly() async throws {
        try await withManager { harness in
            let result = try await harness.manager.image(for: harness.url("/photo.jpg"), options: .avoidDecode)
            #expect(result.image == nil)
            #expect(result.data == ManagerHarness.jpeg)
            #expect(harness.coder.decodes.load(ordering: .relaxed) == 0)
            await harness.manager.waitForPendingStores()
            let decoded = try await harness.manager.image(for: harness.url("/photo.jpg"))
            #expect(decoded.cacheType == .disk)
        }
    }

    @Test func decodeFirstFrameOnly() async throws {
        try await withManager { harness in
            let all = try await harness.manager.image(for: harness.url("/anim.gif"))
            #expect(all.image?.frames.count == 8)
            let first = try await harness.manager.image(for: harness.url("/anim.gif"), options: .decodeFirstFrameOnly)
            #expect(first.image?.frames.count == 1)
        }
    }

    @Test func cacheMemoryOnlyLeavesTheDiskEmpty() async throws {
        try await withManager { harness in
            let url = harness.url("/photo.jpg")
            _ = try await harness.manager.image(for: url, options: .cacheMemoryOnly)
            #expect(await harness.manager.configuration.cache.contains(url.absoluteString, in: .disk) == .none)
            #expect(await harness.manager.configuration.cache.contains(url.absoluteString, in: .memory) == .memory)
        }
    }

    @Test func transformedImagesAreCachedUnderTheirOwnKey() async throws {
        try await withManager { harness in
            let url = harness.url("/photo.jpg")
            let small = CountingTransformer(size: 8)
            let result = try await harness.manager.image(for: url, transformer: small)
            #expect(result.image?.size == PixelSize(width: 8, height: 8))
            #expect(try await harness.manager.image(for: url, transformer: small).cacheType == .memory)
            await harness.manager.waitForPendingStores()
            let reused = try await harness.manager.image(for: url, transformer: CountingTransformer(size: 16))
            #expect(reused.cacheType == .disk)
            #expect(reused.image?.size == PixelSize(width: 16, height: 16))
            #expect(harness.server.requestCount("/photo.jpg") == 1)
            #expect(small.runs.load(ordering: .relaxed) == 1)
        }
    }

    /// Also through a composite cache (``ImageCaches``), which encodes through the caches it holds.
    @Test(arguments: [false, true])
    func finishedImagesAreEncodedForTheDiskOnTheWorkQueue(composite: Bool) async throws {
        try await withManager { harness in
            let transformer = CountingTransformer(size: 8)
            let workQueue = harness.manager.workQueue
            harness.coder.probe.withLock { $0 = { workQueue.running } }
            var context = ImageContext()
            if composite { context[ImageContextKeys.Cache.self] = ImageCaches([harness.cache]) }
            let request = ImageRequest(url: harness.url("/photo.jpg"), transformer: transformer, context: context)
            _ = try await harness.manager.image(for: request)
            await harness.manager.waitForPendingStores()
            // The one encode (the finished image, for the disk) held a work queue slot: it ran on the queue.
            #expect(harness.coder.encodeProbes == [1])
            #expect(await harness.cache.disk.contains(request.transformedCacheKey))
        }
    }

    @Test func thumbnailSizeShrinksOnLoad() async throws {
        try await withManager { harness in
            let request = ImageRequest(
                url: harness.url("/photo.jpg"), thumbnailSize: PixelSize(width: 100, height: 100))
            let result = try await harness.manager.image(for: request)
            let size = try #require(result.image?.size)
            #expect(size.width < 640 && size.width >= 100 && size.height >= 75)
        }
    }

    @Test func scaleDownLargeImages() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "webimage-scale-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let manager = ImageManager(
            configuration: .init(
                loader: FileImageLoader(),
                cache: ImageCache(memory: MemoryImageCache(), disk: DiskCache(directory: directory)),
                scaleDownLimit: 100_000))
        let url = Fixtures.corpus.appendingPathComponent("images/gen_12mp.jpg")
        let result = try await manager.image(for: url, options: .scaleDownLargeImages)
        let size = try #require(result.image?.size)
        #expect(size.area < 4000 * 3000 && size.width >= 250)
    }

    @Test func fileAndDataSourcesGoThroughThePipeline() async throws {
        try await withManager { harness in
            let file = Fixtures.corpus.appendingPathComponent("images/pngsuite_basn6a08.png")
            #expect(try await harness.manager.image(for: file).image?.size == PixelSize(width: 32, height: 32))
            let png = try Data(contentsOf: file)
            let data = URL(string: "data:image/png;base64," + png.base64EncodedString())!
            #expect(try await harness.manager.image(for: data).image?.size == PixelSize(width: 32, height: 32))
        }
    }
}
