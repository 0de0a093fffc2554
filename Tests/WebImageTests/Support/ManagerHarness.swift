import Foundation
import Synchronization
import Testing
import WebImageTesting

@testable import WebImage

/// A coder that counts its decodes and, at each encode, notes what `probe` says, wrapping the default registry.
final class CountingCoder: ImageCoding {
    let decodes = Atomic<Int>(0)
    let inner = ImageCoders.default
    /// Asked at each encode (set by a test once the manager exists).
    let probe = Locked<(@Sendable () -> Int)?>(nil)
    private let probed = Locked<[Int]>([])

    /// What `probe` said at each encode, in order (-1 without a probe).
    var encodeProbes: [Int] { probed.withLock { $0 } }

    func canDecode(_ format: ImageFormat) -> Bool { inner.canDecode(format) }
    func canEncode(_ format: ImageFormat) -> Bool { inner.canEncode(format) }
    func info(of data: Data) throws(WebImageError) -> ImageInfo { try inner.info(of: data) }
    func decode(_ data: Data, options: DecodingOptions) throws(WebImageError) -> Image {
        decodes.add(1, ordering: .relaxed)
        return try inner.decode(data, options: options)
    }
    func decodePartial(_ data: Data, options: DecodingOptions) throws(WebImageError) -> Image? {
        try inner.decodePartial(data, options: options)
    }
    func encode(_ image: Image, as format: ImageFormat, options: EncodingOptions) throws(WebImageError) -> Data {
        let value = probe.withLock { $0 }?() ?? -1
        probed.withLock { $0.append(value) }
        return try inner.encode(image, as: format, options: options)
    }
}

/// A transformer that counts its runs and crops to a size.
final class CountingTransformer: ImageTransforming {
    let runs = Atomic<Int>(0)
    let crop: Crop

    init(size: Int = 8) { crop = Crop(size: PixelSize(width: size, height: size)) }

    var key: String { "counting-" + crop.key }

    func transform(_ image: Image) throws(WebImageError) -> Image {
        runs.add(1, ordering: .relaxed)
        return try crop.transform(image)
    }
}

/// A test cache around another one: every requirement goes to `inner` unless the conforming type says otherwise.
protocol WrappingCache: ImageCaching {
    associatedtype Inner: ImageCaching
    var inner: Inner { get }
}

extension WrappingCache {
    func cachedImage(forKey key: String) -> Image? { inner.cachedImage(forKey: key) }
    func query(forKey key: String, in types: ImageCacheType, decode: Bool) async -> ImageCacheResult? {
        await inner.query(forKey: key, in: types, decode: decode)
    }
    func store(
        _ image: Image?, data: Data?, forKey key: String, attributes: CacheEntryAttributes, in types: ImageCacheType
    ) async throws(WebImageError) {
        try await inner.store(image, data: data, forKey: key, attributes: attributes, in: types)
    }
    func encodedForDisk(
        _ image: Image, attributes: CacheEntryAttributes
    ) throws(WebImageError) -> (data: Data, attributes: CacheEntryAttributes)? {
        try inner.encodedForDisk(image, attributes: attributes)
    }
    func remove(forKey key: String, from types: ImageCacheType) async { await inner.remove(forKey: key, from: types) }
    func contains(_ key: String, in types: ImageCacheType) async -> ImageCacheType {
        await inner.contains(key, in: types)
    }
    func removeAll(from types: ImageCacheType) async { await inner.removeAll(from: types) }
    func count(in types: ImageCacheType) async -> Int { await inner.count(in: types) }
    func totalSize(in types: ImageCacheType) async -> Int { await inner.totalSize(in: types) }
    func trim() async { await inner.trim() }
}

/// An ``ImageCache`` that notes how many runs the manager had in flight at each query.
final class RunCountingCache: WrappingCache {
    let inner: ImageCache
    let manager: ImageManager
    private let seen = Locked<[Int]>([])

    init(_ inner: ImageCache, manager: ImageManager) {
        self.inner = inner
        self.manager = manager
    }

    /// The manager's run count at each query, in order.
    var runsSeen: [Int] { seen.withLock { $0 } }

    func query(forKey key: String, in types: ImageCacheType, decode: Bool) async -> ImageCacheResult? {
        seen.withLock { $0.append(manager.runningCount) }
        return await inner.query(forKey: key, in: types, decode: decode)
    }
}

/// An ``ImageCache`` that counts the manager's synchronous memory lookups (``ImageCaching/cachedImage(forKey:)``).
final class MemoryLookupCountingCache: WrappingCache {
    let inner: ImageCache
    let lookups = Atomic<Int>(0)

    init(_ inner: ImageCache) { self.inner = inner }

    func cachedImage(forKey key: String) -> Image? {
        lookups.add(1, ordering: .relaxed)
        return inner.cachedImage(forKey: key)
    }
}

/// A started test server, an HTTP loader, a counting coder, a cache in a fresh temp directory and a manager over
/// them. Call ``shutdown()`` when done (``withManager(_:_:)`` does).
struct ManagerHarness {
    let server: TestImageServer
    let loader: HTTPImageLoader
    let directory: URL
    let coder = CountingCoder()
    let manager: ImageManager
    var cache: ImageCache { manager.configuration.cache as! ImageCache }

    static let jpeg = try! corpusImage("gen_baseline_420.jpg")
    static let progressive = try! corpusImage("gen_progressive.jpg")
    static let gif = try! corpusImage("gen_anim.gif")

    init(loaderConfiguration: HTTPImageLoader.Configuration = .init(), directory: URL? = nil) async throws {
        server = TestImageServer()
        try await server.start()
        server.register(Self.jpeg, at: "/photo.jpg", contentType: "image/jpeg")
        server.register(Self.progressive, at: "/progressive.jpg", contentType: "image/jpeg")
        server.register(Self.gif, at: "/anim.gif", contentType: "image/gif")
        server.register(
            Data("not an image at all".utf8) + Data(count: 64), at: "/broken.jpg", contentType: "image/jpeg")
        loader = HTTPImageLoader(configuration: loaderConfiguration)
        self.directory =
            directory
            ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("webimage-manager-\(UUID().uuidString)")
        manager = Self.manager(loader: loader, directory: self.directory, coder: coder)
    }

    /// Another manager (own memory cache) over the same disk directory and loader.
    static func manager(loader: HTTPImageLoader, directory: URL, coder: CountingCoder) -> ImageManager {
        let disk = DiskCache(directory: directory, configuration: DiskCache.Configuration(sweepInterval: nil))
        let cache = ImageCache(memory: MemoryImageCache(), disk: disk, coder: coder)
        return ImageManager(
            configuration: .init(
                loader: ImageLoaders([loader, FileImageLoader(), DataURLImageLoader()]), cache: cache, coders: coder))
    }

    func url(_ path: String) -> URL { server.url(path) }

    /// Lets background disk writes finish, stops the loader and the server, and deletes the directory.
    func shutdown() async {
        await manager.waitForPendingStores()
        try? await loader.shutdown()
        try? await server.shutdown()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Runs `body` with a harness, shutting it down afterwards (also when `body` throws or returns early); on the
/// caller's actor, so main-actor tests keep their synchronous checks.
func withManager<T>(
    _ loaderConfiguration: HTTPImageLoader.Configuration = .init(),
    isolation: isolated (any Actor)? = #isolation,
    _ body: (ManagerHarness) async throws -> T
) async throws -> T {
    let harness = try await ManagerHarness(loaderConfiguration: loaderConfiguration)
    do {
        let value = try await body(harness)
        await harness.shutdown()
        return value
    } catch {
        await harness.shutdown()
        throw error
    }
}

/// Runs `body`, expecting it to throw a ``WebImageError`` (with `code`, when given); returns the error.
@discardableResult
func expectManagerError<T>(
    _ code: WebImageError.Code? = nil, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> T
) async -> WebImageError? {
    do {
        let value = try await body()
        Issue.record("expected an error, got \(value)", sourceLocation: sourceLocation)
        return nil
    } catch let error as WebImageError {
        if let code { #expect(error.code == code, "\(error)", sourceLocation: sourceLocation) }
        return error
    } catch {
        Issue.record("expected a WebImageError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// Fixture images the test server serves, as `/fixtures/…` paths.
enum ServedImages {
    /// A 15 KB PNG.
    static let alpha = "/fixtures/resize/alpha.png"
    /// A second, larger PNG.
    static let photo = "/fixtures/resize/photo.png"
    /// A third, smaller PNG.
    static let small = "/fixtures/resize/alpha_160x120_bilinear.png"
}
