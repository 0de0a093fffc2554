import Foundation
import Testing
import WebImageTesting

@testable import WebImage

/// A loader for `test:` URLs that answers with a fixed JPEG and records the priority each load asked for.
final class RecordingLoader: ImageLoading {
    let priorities = Locked<[ImageLoadPriority]>([])
    let shutdowns = Locked(0)

    func shutdown() async throws { shutdowns.withLock { $0 += 1 } }

    func canLoad(_ url: URL) -> Bool { url.scheme == "test" }

    func load(
        _ request: ImageLoadRequest, progress: ImageLoadProgressHandler?, partialData: ImagePartialDataHandler?
    ) async throws(WebImageError) -> ImageResponse {
        priorities.withLock { $0.append(request.priorityHandle?.priority ?? request.priority) }
        return ImageResponse(data: ManagerHarness.jpeg, url: request.url)
    }
}

/// A cache whose queries wait at a gate, so a test can act while a request is still looking in the cache.
final class GatedCache: WrappingCache {
    let inner = MemoryImageCache()
    private let gate = Locked<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))
    let (entered, enteredSink) = AsyncStream.makeStream(of: Void.self)

    func open() {
        let waiting = gate.withLock { gate in
            gate.open = true
            defer { gate.waiting = [] }
            return gate.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    func query(forKey key: String, in types: ImageCacheType, decode: Bool) async -> ImageCacheResult? {
        enteredSink.yield()
        await withCheckedContinuation { continuation in
            let open = gate.withLock { gate in
                if !gate.open { gate.waiting.append(continuation) }
                return gate.open
            }
            if open { continuation.resume() }
        }
        return await inner.query(forKey: key, in: types, decode: decode)
    }
}

/// Requests share work only when everything that shapes the result is the same; a caller's priority is never lost.
@Suite struct ManagerRequestIdentityTests {
    static let url = URL(string: "https://example.invalid/a.jpg")!

    static func request(_ change: (inout ImageRequest) -> Void = { _ in }) -> ImageRequest {
        var request = ImageRequest(url: url)
        change(&request)
        return request
    }

    static func bearer(_ token: String) -> ImageLoaderOptions {
        var options = ImageLoaderOptions()
        options.requestModifier = .bearer(token)
        return options
    }

    @Test func requestsThatDifferInWhatShapesTheResultHaveDifferentRunKeys() {
        let plain = Self.request()
        let variants: [String: ImageRequest] = [
            "headers": Self.request { $0.loaderOptions = Self.bearer("b") },
            "timeout": Self.request { $0.loaderOptions.timeout = .seconds(1) },
            "validator": Self.request { $0.loaderOptions.responseValidator = ImageResponseValidator { _ in } },
            "limits": Self.request { $0.decodingLimits = DecodingLimits(maxPixelsPerFrame: 10) },
            "thumbnail": Self.request { $0.thumbnailSize = PixelSize(width: 10, height: 10) },
            "transformer": Self.request { $0.transformer = Crop(size: PixelSize(width: 10, height: 10)) },
            "cache key": Self.request { $0.cacheKeyFilter = { _ in "other" } },
            "cache policy": Self.request { $0.cachePolicy.store = .memory },
            "cache": Self.request { $0.context[ImageContextKeys.Cache.self] = MemoryImageCache() },
            "loader": Self.request { $0.context[ImageContextKeys.Loader.self] = RecordingLoader() },
            "coders": Self.request { $0.context[ImageContextKeys.Coders.self] = CountingCoder() },
        ]
        for (name, variant) in variants {
            #expect(ImageManager.runKey(for: variant) != ImageManager.runKey(for: plain), "\(name)")
        }
        let a = Self.request { $0.loaderOptions = Self.bearer("a") }
        let b = Self.request { $0.loaderOptions = Self.bearer("b") }
        #expect(ImageManager.runKey(for: a) != ImageManager.runKey(for: b))
        #expect(
            ImageManager.runKey(for: a)
                == ImageManager.runKey(for: Self.request { $0.loaderOptions = Self.bearer("a") }))
        #expect(ImageManager.runKey(for: plain) == ImageManager.runKey(for: Self.request()))
        let sharedLoader = RecordingLoader()
        let viaLoader = Self.request { $0.context[ImageContextKeys.Loader.self] = sharedLoader }
        #expect(ImageManager.runKey(for: viaLoader) == ImageManager.runKey(for: viaLoader))
    }

    @Test func concurrentRequestsWithDifferentCredentialsDownloadSeparately() async throws {
        try await withManager { harness in
            let url = harness.url("/photo.jpg?gate=credentials")
            let alice = harness.manager.task(for: ImageRequest(url: url, loaderOptions: Self.bearer("alice")))
            await harness.server.waitForRequests("/photo.jpg")
            let bob = harness.manager.task(for: ImageRequest(url: url, loaderOptions: Self.bearer("bob")))
            let joined = ContinuousClock.now + .seconds(10)
            while harness.manager.subscriberCount < 2, ContinuousClock.now < joined {
                try await Task.sleep(for: .milliseconds(2))
            }
            harness.server.openGate("credentials")
            _ = try await alice.result
            _ = try await bob.result
            #expect(harness.server.requestCount("/photo.jpg") == 2)
            let sent = harness.server.stats.values(of: "Authorization", for: "/photo.jpg")
            #expect(sent.sorted() == ["Bearer alice", "Bearer bob"], "each caller's own credentials were sent")
        }
    }

    @Test func shutdownReachesCustomLoadersNestedInLoaderLists() async throws {
        let inner = RecordingLoader()
        let outer = RecordingLoader()
        let manager = ImageManager(
            configuration: .init(loader: ImageLoaders([FileImageLoader(), ImageLoaders([inner]), outer])))
        await manager.shutdown()
        #expect(inner.shutdowns.withLock { $0 } == 1)
        #expect(outer.shutdowns.withLock { $0 } == 1)
    }

    @Test func aPriorityChangedBeforeTheTaskJoinsItsRunIsKept() async throws {
        let loader = RecordingLoader()
        let cache = GatedCache()
        let manager = ImageManager(configuration: .init(loader: loader, cache: cache))
        let task = manager.task(
            for: ImageRequest(url: URL(string: "test:a")!, options: [.lowPriority, .queryDiskDataSync]))
        var entered = cache.entered.makeAsyncIterator()
        await entered.next()
        task.setPriority(.high)
        cache.open()
        _ = try await task.result
        #expect(loader.priorities.withLock { $0 } == [.high])
    }
}
