import Foundation
import WebImage
import WebImageTesting

/// A started test server, its HTTP loader, and a manager over a fresh memory cache and a disk cache in a temporary
/// directory. Call ``shutdown()`` when done.
struct ManagerTestEnvironment: Sendable {
    let server: TestImageServer
    let loader: HTTPImageLoader
    let cache: ImageCache
    let manager: ImageManager
    let directory: URL

    static func start(loader configuration: HTTPImageLoader.Configuration = .init()) async throws -> Self {
        let server = TestImageServer()
        try await server.start()
        let loader = HTTPImageLoader(configuration: configuration)
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("webimage-manager-\(UUID().uuidString)", isDirectory: true)
        let disk = DiskCache(directory: directory, configuration: DiskCache.Configuration(sweepInterval: nil))
        let cache = ImageCache(memory: MemoryImageCache(), disk: disk)
        let manager = ImageManager(configuration: .init(loader: loader, cache: cache))
        return Self(server: server, loader: loader, cache: cache, manager: manager, directory: directory)
    }

    /// The server's URL for `path`.
    func url(_ path: String) -> URL { server.url(path) }

    func shutdown() async {
        try? await loader.shutdown()
        try? await server.shutdown()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Runs `body` with a fresh ``ManagerTestEnvironment``, shutting it down afterwards.
func withTestManager<T>(
    loader configuration: HTTPImageLoader.Configuration = .init(),
    _ body: (TestImageServer, ImageManager, ImageCache, HTTPImageLoader) async throws -> T
) async throws -> T {
    let environment = try await ManagerTestEnvironment.start(loader: configuration)
    do {
        let result = try await body(environment.server, environment.manager, environment.cache, environment.loader)
        await environment.shutdown()
        return result
    } catch {
        await environment.shutdown()
        throw error
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
