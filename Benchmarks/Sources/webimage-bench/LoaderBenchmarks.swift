import AsyncHTTPClient
import Dispatch
import Foundation
import NIOCore
import WebImage
import WebImageTesting

/// `webimage-bench loader …`: download throughput of HTTPImageLoader against a raw AsyncHTTPClient loop.
///
/// - `loader serve --urls FILE [--count 200] [--size 100000]`: start the test server with `count` distinct images,
///   write their URLs to FILE, print `ready`, and serve until SIGTERM or SIGINT.
/// - `loader run --urls FILE --client loader|raw [--concurrency 6] [--rounds 5]`: download every URL per round and
///   print one result line per round.
/// - `loader` alone: both of the above in one process, each client for `--rounds` rounds.
enum LoaderBenchmarks {
    static func main(_ arguments: [String]) async throws {
        var options: [String: String] = [:]
        var command = "all"
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument.hasPrefix("--"), index + 1 < arguments.count {
                options[String(argument.dropFirst(2))] = arguments[index + 1]
                index += 2
            } else {
                command = argument
                index += 1
            }
        }
        let count = Int(options["count"] ?? "") ?? 200
        let size = Int(options["size"] ?? "") ?? 100_000
        let concurrency = Int(options["concurrency"] ?? "") ?? 6
        let rounds = Int(options["rounds"] ?? "") ?? 5
        switch command {
        case "serve":
            guard let file = options["urls"] else { throw Usage() }
            try await serve(count: count, size: size, urlsFile: file)
        case "run":
            guard let file = options["urls"], let client = options["client"] else { throw Usage() }
            let urls = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").compactMap {
                URL(string: String($0))
            }
            for _ in 0..<rounds { print(try await measure(client: client, urls: urls, concurrency: concurrency)) }
        default:
            let server = try await startServer(count: count, size: size)
            let urls = (0..<count).map { server.url(path(for: $0)) }
            for _ in 0..<rounds {
                for client in ["loader", "raw"] {
                    print(try await measure(client: client, urls: urls, concurrency: concurrency))
                }
            }
            try await server.shutdown()
        }
    }

    struct Usage: Error, CustomStringConvertible {
        var description: String {
            "usage: webimage-bench loader [serve --urls FILE | run --urls FILE --client loader|raw] [--count N] "
                + "[--size BYTES] [--concurrency N] [--rounds N]"
        }
    }

    static func path(for index: Int) -> String { "/bench/img\(index).jpg" }

    /// `size` bytes that start like a JPEG, distinct per `index`.
    static func image(index: Int, size: Int) -> Data {
        var state = UInt64(index + 1) &* 0x9E37_79B9_7F4A_7C15
        var bytes = [UInt8](repeating: 0, count: size)
        for position in 0..<size {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes[position] = UInt8(truncatingIfNeeded: state >> 33)
        }
        bytes.replaceSubrange(0..<4, with: [0xFF, 0xD8, 0xFF, 0xE0])
        return Data(bytes)
    }

    static func startServer(count: Int, size: Int) async throws -> TestImageServer {
        let server = TestImageServer()
        for index in 0..<count {
            server.register(image(index: index, size: size), at: path(for: index), contentType: "image/jpeg")
        }
        try await server.start()
        return server
    }

    static func serve(count: Int, size: Int, urlsFile: String) async throws {
        let server = try await startServer(count: count, size: size)
        let urls = (0..<count).map { server.url(path(for: $0)).absoluteString }
        try (urls.joined(separator: "\n") + "\n").write(toFile: urlsFile, atomically: true, encoding: .utf8)
        FileHandle.standardOutput.write(Data("ready \(server.baseURL.absoluteString)\n".utf8))
        await waitForTermination()
        try await server.shutdown()
    }

    /// Suspends until SIGTERM or SIGINT.
    static func waitForTermination() async {
        signal(SIGTERM, SIG_IGN)
        signal(SIGINT, SIG_IGN)
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        let sources = [SIGTERM, SIGINT].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield() }
            source.resume()
            return source
        }
        for await _ in stream { break }
        for source in sources { source.cancel() }
    }

    /// Downloads every URL once with `client` and returns a result line.
    static func measure(client: String, urls: [URL], concurrency: Int) async throws -> String {
        let clock = ContinuousClock()
        let start = clock.now
        let bytes: Int
        switch client {
        case "loader": bytes = try await runLoader(urls: urls, concurrency: concurrency)
        case "raw": bytes = try await runRaw(urls: urls, concurrency: concurrency)
        default: throw Usage()
        }
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let megabytes = Double(bytes) / 1_000_000
        return String(
            format: "client=%@ images=%d bytes=%d seconds=%.4f MB/s=%.1f images/s=%.1f", client, urls.count, bytes,
            seconds, megabytes / seconds, Double(urls.count) / seconds)
    }

    /// HTTPImageLoader: every load is started at once; the loader's queue keeps `concurrency` running.
    static func runLoader(urls: [URL], concurrency: Int) async throws -> Int {
        let loader = HTTPImageLoader(configuration: .init(maxConcurrentDownloads: concurrency))
        do {
            let total = try await withThrowingTaskGroup(of: Int.self) { group in
                for url in urls { group.addTask { try await loader.load(url).data.count } }
                return try await group.reduce(0, +)
            }
            try await loader.shutdown()
            return total
        } catch {
            try? await loader.shutdown()
            throw error
        }
    }

    /// A raw AsyncHTTPClient loop: a task group that keeps `concurrency` requests in flight, no queue.
    static func runRaw(urls: [URL], concurrency: Int) async throws -> Int {
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            let total = try await withThrowingTaskGroup(of: Int.self) { group in
                var next = 0
                var total = 0
                func add() {
                    let url = urls[next]
                    next += 1
                    group.addTask {
                        let response = try await client.execute(
                            HTTPClientRequest(url: url.absoluteString), timeout: .seconds(15))
                        guard response.status == .ok else { throw Usage() }
                        return try await response.body.collect(upTo: 50 * 1024 * 1024).readableBytes
                    }
                }
                while next < min(concurrency, urls.count) { add() }
                while let bytes = try await group.next() {
                    total += bytes
                    if next < urls.count { add() }
                }
                return total
            }
            try await client.shutdown()
            return total
        } catch {
            try? await client.shutdown()
            throw error
        }
    }
}
