import Foundation
import Synchronization
import WebImage
import WebImageTesting

/// `webimage-bench manager [--count 100] [--rounds 9]`: the manager's overhead.
///
/// 1. A memory hit end to end: `image(for:)` of an image already in the memory cache, in ns per call.
/// 2. A cold load of `count` distinct JPEGs from the local test server, 6 at a time, through the manager with each
///    cache setting (fresh caches in a temp directory each time, made before timing) and through the same loader plus
///    a decode without the manager, dropping or keeping the images (a memory cache keeps them, which costs page
///    faults). Wall time and the process's CPU time, each the median over the rounds.
enum ManagerBenchmark {
    static func run(_ arguments: [String]) async throws {
        let count = option("count", in: arguments).flatMap(Int.init) ?? 100
        let rounds = option("rounds", in: arguments).flatMap(Int.init) ?? 9
        let server = TestImageServer()
        try await server.start()
        let jpeg = try Data(contentsOf: Fixtures.corpus.appendingPathComponent("images/gen_baseline_420.jpg"))
        for index in 0..<count { server.register(jpeg, at: "/image\(index).jpg", contentType: "image/jpeg") }
        let loader = HTTPImageLoader()
        defer {
            Task {
                try? await loader.shutdown(); try? await server.shutdown()
            }
        }

        let hitManager = try manager(loader: loader)
        let url = server.url("/image0.jpg")
        _ = try await hitManager.image(for: url)
        let calls = 200_000
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<calls { _ = try await hitManager.image(for: url) }
        let perCall = (clock.now - start) / calls
        print("memory hit through image(for:): \(perCall.components.attoseconds / 1_000_000_000) ns per call")

        var samples: [Variant: [Double]] = [:]
        var cpu: [Variant: [Double]] = [:]
        for round in 1...rounds {
            for variant in Variant.allCases {
                let urls = (0..<count).map { server.url("/image\($0).jpg?round=\(round)&\(variant)") }
                // The manager and its caches are made before the clock starts: the load is measured, not the set-up.
                let manager = variant.usesManager ? try ManagerBenchmark.manager(loader: loader) : nil
                let cpuStart = processorSeconds()
                samples[variant, default: []].append(
                    try await timed { try await variant.load(urls, loader: loader, manager: manager) })
                cpu[variant, default: []].append(processorSeconds() - cpuStart)
                await manager?.waitForPendingStores()
            }
        }
        let median = samples.mapValues { $0.sorted()[$0.count / 2] * 1000 }
        let cpuMedian = cpu.mapValues { $0.sorted()[$0.count / 2] * 1000 }
        print("\(count) cold loads, 6 at a time, median of \(rounds) rounds (each round runs every variant once);")
        print("CPU: user + system time of the whole process (the test server included) during the loads:")
        print("| variant | ms | over its baseline | CPU ms | CPU over its baseline |")
        print("|---|---:|---:|---:|---:|")
        for variant in Variant.allCases {
            let (ms, cpuMs) = (median[variant]!, cpuMedian[variant]!)
            let over = variant.baseline.map { String(format: "%+.1f%%", (ms / median[$0]! - 1) * 100) } ?? "baseline"
            let cpuOver =
                variant.baseline.map { String(format: "%+.1f%%", (cpuMs / cpuMedian[$0]! - 1) * 100) } ?? "baseline"
            print(String(format: "| %@ | %.1f | %@ | %.1f | %@ |", variant.label, ms, over, cpuMs, cpuOver))
        }
    }

    /// User plus system CPU time of this process so far, in seconds.
    private static func processorSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// One way of loading and decoding the same number of distinct images.
    enum Variant: CaseIterable {
        case loaderAndDecode, loaderAndDecodeKeeping, managerNoCache, managerMemoryOnly, manager, managerWaitingForDisk

        var label: String {
            switch self {
            case .loaderAndDecode: "loader + decode, images dropped"
            case .loaderAndDecodeKeeping: "loader + decode, images kept"
            case .managerNoCache: "manager, no cache tiers"
            case .managerMemoryOnly: "manager, memory cache only"
            case .manager: "manager, memory + disk (delivered before the disk write)"
            case .managerWaitingForDisk: "manager, memory + disk, waitStoreCache"
            }
        }

        /// What this variant is compared with: the same work without the manager.
        var baseline: Variant? {
            switch self {
            case .loaderAndDecode, .loaderAndDecodeKeeping: nil
            case .managerNoCache: .loaderAndDecode
            case .managerMemoryOnly, .manager, .managerWaitingForDisk: .loaderAndDecodeKeeping
            }
        }

        /// Whether this variant loads through a manager.
        var usesManager: Bool { baseline != nil }

        /// Loads `urls`, through `manager` for the manager variants.
        func load(_ urls: [URL], loader: HTTPImageLoader, manager: ImageManager?) async throws {
            var options: ImageOptions = []
            var cachePolicy = ImageCachePolicy.default
            switch self {
            case .loaderAndDecode, .loaderAndDecodeKeeping:
                try await loadAndDecodeAll(urls, loader: loader, keep: self == .loaderAndDecodeKeeping)
                return
            case .managerNoCache:
                cachePolicy = ImageCachePolicy(query: [], store: [])
            case .managerMemoryOnly: cachePolicy = ImageCachePolicy(query: .memory, store: .memory)
            case .manager: break
            case .managerWaitingForDisk: options = .waitStoreCache
            }
            guard let manager else { return }
            try await loadAll(urls, with: manager, options: options, cachePolicy: cachePolicy)
        }
    }

    private static func manager(loader: HTTPImageLoader) throws -> ImageManager {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "webimage-bench-\(UUID().uuidString)")
        return ImageManager(
            configuration: .init(
                loader: loader, cache: ImageCache(memory: MemoryImageCache(), disk: DiskCache(directory: directory))))
    }

    private static func loadAll(
        _ urls: [URL], with manager: ImageManager, options: ImageOptions = [], cachePolicy: ImageCachePolicy = .default
    ) async throws {
        try await forEach(urls) { url in
            _ = try await manager.image(for: ImageRequest(url: url, options: options, cachePolicy: cachePolicy))
        }
    }

    private static func loadAndDecodeAll(_ urls: [URL], loader: HTTPImageLoader, keep: Bool = false) async throws {
        let kept = Mutex<[Image]>([])
        try await forEach(urls) { url in
            let response = try await loader.load(url)
            let image = try ImageCoders.default.decode(response.data, options: .default)
            if keep { kept.withLock { $0.append(image) } }
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
