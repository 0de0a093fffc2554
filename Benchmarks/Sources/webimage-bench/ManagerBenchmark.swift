import Foundation
import WebImage
import WebImageTesting

/// `webimage-bench manager [--count 100] [--rounds 3]`: the manager's overhead.
///
/// 1. A memory hit end to end: `image(for:)` of an image already in the memory cache, in ns per call.
/// 2. A cold load of `count` distinct JPEGs from the local test server through the whole pipeline (fresh caches in
///    a temp directory each round), with and without the disk store, against the same loader plus a decode without
///    the manager, all 6 at a time.
enum ManagerBenchmark {
    static func run(_ arguments: [String]) async throws {
        let count = option("count", in: arguments).flatMap(Int.init) ?? 100
        let rounds = option("rounds", in: arguments).flatMap(Int.init) ?? 3
        let server = TestImageServer()
        try await server.start()
        let jpeg = try Data(contentsOf: Fixtures.corpus.appendingPathComponent("images/gen_baseline_420.jpg"))
        for index in 0..<count { server.register(jpeg, at: "/image\(index).jpg", contentType: "image/jpeg") }
        let loader = HTTPImageLoader()
        defer { Task { try? await loader.shutdown(); try? await server.shutdown() } }

        let hitManager = try manager(loader: loader)
        let url = server.url("/image0.jpg")
        _ = try await hitManager.image(for: url)
        let calls = 200_000
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<calls { _ = try await hitManager.image(for: url) }
        let perCall = (clock.now - start) / calls
        print("memory hit through image(for:): \(perCall.components.attoseconds / 1_000_000_000) ns per call")

        for round in 1...rounds {
            let urls = (0..<count).map { server.url("/image\($0).jpg?round=\(round)") }
            let pipeline = try await timed { try await loadAll(urls, with: try manager(loader: loader)) }
            let memoryOnly = try await timed {
                try await loadAll(urls.map { URL(string: $0.absoluteString + "&memory")! }, with: try manager(loader: loader), options: .cacheMemoryOnly)
            }
            let bare = try await timed { try await loadAndDecodeAll(urls.map { URL(string: $0.absoluteString + "&bare")! }, loader: loader) }
            print(String(
                format: "round %d: %d cold loads: manager %.1f ms (%.1f%% over), manager storing in memory only %.1f ms (%.1f%% over), loader + decode %.1f ms",
                round, count, pipeline * 1000, (pipeline / bare - 1) * 100, memoryOnly * 1000, (memoryOnly / bare - 1) * 100, bare * 1000))
        }
    }

    private static func manager(loader: HTTPImageLoader) throws -> ImageManager {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-bench-\(UUID().uuidString)")
        return ImageManager(configuration: .init(
            loader: loader, cache: ImageCache(memory: MemoryImageCache(), disk: DiskCache(directory: directory))))
    }

    private static func loadAll(_ urls: [URL], with manager: ImageManager, options: ImageOptions = []) async throws {
        try await forEach(urls) { url in _ = try await manager.image(for: url, options: options) }
    }

    private static func loadAndDecodeAll(_ urls: [URL], loader: HTTPImageLoader) async throws {
        try await forEach(urls) { url in
            let response = try await loader.load(url)
            _ = try ImageCoders.default.decode(response.data, options: .default)
        }
    }

    /// Runs `body` for every URL, six at a time.
    private static func forEach(_ urls: [URL], _ body: @escaping @Sendable (URL) async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            var pending = urls.makeIterator()
            for _ in 0..<6 { if let url = pending.next() { group.addTask { try await body(url) } } }
            while try await group.next() != nil {
                if let url = pending.next() { group.addTask { try await body(url) } }
            }
        }
    }

    private static func timed(_ body: () async throws -> Void) async throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try await body()
        return (clock.now - start).seconds
    }
}

extension Duration {
    /// This duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
