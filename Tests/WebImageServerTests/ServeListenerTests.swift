import Foundation
import Testing
import WebImageTesting

/// imgproxy's listener variables end to end, on a real `webimage serve` process started with only `IMGPROXY_*`
/// variables: `IMGPROXY_NETWORK=unix`, and the connection timeouts (read request, write response, keep-alive).
@Suite("Serve: the listener's imgproxy variables")
struct ServeListenerTests {
    @Test func aUnixSocketIsAnsweredAtTheBindPath() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wis-sock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let socket = directory.appendingPathComponent("imgproxy.sock").path
        let (line, body) = try await Self.serveLine(
            environment: ["IMGPROXY_NETWORK": "unix", "IMGPROXY_BIND": socket]
        ) { _ in
            try ServeCommandTests.curl(["--unix-socket", socket, "http://localhost/health"])
        }
        #expect(line.hasPrefix("listening on unix:\(socket)"), "\(line)")
        #expect(body.hasPrefix("imgproxy is running"), "\(body)")
    }

    /// Also on the listener of `IMGPROXY_SO_REUSEPORT`, which runs the same connection pipeline.
    @Test(arguments: ["false", "true"])
    func aClientSlowerThanTheReadRequestTimeoutIsClosed(reusePort: String) async throws {
        _ = try await ServeLifecycleTests.serve(
            environment: [
                "IMGPROXY_READ_REQUEST_TIMEOUT": "1", "IMGPROXY_KEEP_ALIVE_TIMEOUT": "600",
                "IMGPROXY_SO_REUSEPORT": reusePort,
            ]
        ) { base in
            let connection = try RawConnection(port: try Self.port(base))
            defer { connection.close() }
            try connection.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            let answer = await ServeLifecycleTests.offPool { connection.read(within: 60_000) }
            #expect(answer == Data(), "the half-sent request's connection is closed")
        }
    }

    @Test func aSlowClientWithinALongReadRequestTimeoutIsWaitedFor() async throws {
        _ = try await ServeLifecycleTests.serve(
            environment: ["IMGPROXY_READ_REQUEST_TIMEOUT": "600", "IMGPROXY_KEEP_ALIVE_TIMEOUT": "600"]
        ) { base in
            let connection = try RawConnection(port: try Self.port(base))
            defer { connection.close() }
            try connection.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            let early = await ServeLifecycleTests.offPool { connection.read(within: 3_000) }
            #expect(early == nil, "the connection stays open while the client may still send")
            try connection.send("\r\n")
            let response = await ServeLifecycleTests.offPool { connection.readResponse(within: 30_000) }
            #expect(response.hasPrefix("HTTP/1.1 200"), "\(response)")
        }
    }

    @Test(arguments: ["false", "true"])
    func anIdleKeepAliveConnectionIsClosedAfterTheKeepAliveTimeout(reusePort: String) async throws {
        _ = try await ServeLifecycleTests.serve(
            environment: [
                "IMGPROXY_KEEP_ALIVE_TIMEOUT": "1", "IMGPROXY_READ_REQUEST_TIMEOUT": "600",
                "IMGPROXY_SO_REUSEPORT": reusePort,
            ]
        ) { base in
            let connection = try RawConnection(port: try Self.port(base))
            defer { connection.close() }
            try connection.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let response = await ServeLifecycleTests.offPool { connection.readResponse(within: 30_000) }
            #expect(response.hasPrefix("HTTP/1.1 200"), "\(response)")
            #expect(!response.lowercased().contains("connection: close"), "\(response)")
            let after = await ServeLifecycleTests.offPool { connection.read(within: 60_000) }
            #expect(after == Data(), "the idle connection is closed")
        }
    }

    @Test func aLongKeepAliveTimeoutKeepsTheConnectionForTheNextRequest() async throws {
        _ = try await ServeLifecycleTests.serve(environment: ["IMGPROXY_KEEP_ALIVE_TIMEOUT": "600"]) { base in
            let connection = try RawConnection(port: try Self.port(base))
            defer { connection.close() }
            for _ in 0..<2 {
                try connection.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                let response = await ServeLifecycleTests.offPool { connection.readResponse(within: 30_000) }
                #expect(response.hasPrefix("HTTP/1.1 200"), "\(response)")
                let idle = await ServeLifecycleTests.offPool { connection.read(within: 2_000) }
                #expect(idle == nil, "the connection stays open between requests")
            }
        }
    }

    @Test func aZeroKeepAliveTimeoutClosesEveryConnectionAfterItsResponse() async throws {
        _ = try await ServeLifecycleTests.serve(environment: ["IMGPROXY_KEEP_ALIVE_TIMEOUT": "0"]) { base in
            let connection = try RawConnection(port: try Self.port(base))
            defer { connection.close() }
            try connection.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let response = await ServeLifecycleTests.offPool { connection.readResponse(within: 30_000) }
            #expect(response.lowercased().contains("connection: close"), "\(response)")
            let after = await ServeLifecycleTests.offPool { connection.read(within: 60_000) }
            #expect(after == Data(), "the connection is closed after the response")
        }
    }

    /// A client that reads nothing for a while: past `IMGPROXY_WRITE_RESPONSE_TIMEOUT` the server drops the
    /// response, so the client gets less than the whole body; within it, the whole.
    @Test(arguments: [("1", false), ("600", true)])
    func aClientSlowerThanTheWriteResponseTimeoutLosesTheResponse(timeout: String, whole: Bool) async throws {
        let origin = TestImageServer()
        try await origin.start()
        defer { Task { try? await origin.shutdown() } }
        let size = 24 << 20
        origin.register(Data(repeating: 0x5A, count: size), at: "/big.bin", contentType: "application/octet-stream")
        _ = try await ServeLifecycleTests.serve(
            environment: ["IMGPROXY_WRITE_RESPONSE_TIMEOUT": timeout, "IMGPROXY_MAX_SRC_FILE_SIZE": "0"],
            arguments: ["--no-cache"]
        ) { base in
            let path = "/insecure/raw:1/plain/" + origin.url("/big.bin").absoluteString
            let reader = try SlowReader(port: try Self.port(base), path: path)
            defer { reader.reset() }
            let total = await ServeLifecycleTests.offPool { () -> Int in
                // The response has begun (its deadline runs from its head); then nothing is read for a while.
                var total = max(0, reader.read(4096, within: 60_000) ?? 0)
                Thread.sleep(forTimeInterval: 4)
                while let count = reader.read(1 << 20, within: 30_000), count > 0 { total += count }
                return total
            }
            #expect((total > size) == whole, "\(total) bytes read")
        }
    }

    @Test(arguments: [
        (["--network", "udp"], "--network"), (["--network", "unix"], "--network unix"),
        (["--network", "tcp4", "--host", "::1"], "tcp4"), (["--network", "tcp6", "--host", "127.0.0.1"], "tcp6"),
        (["--read-request-timeout", "0"], "--read-request-timeout"),
        (["--write-response-timeout", "-1"], "--write-response-timeout"),
        (["--keep-alive-timeout", "1e9"], "--keep-alive-timeout"),
        (["--client-keep-alive-timeout", "-1"], "--client-keep-alive-timeout"),
        (["--user-agent", "a\u{1}b"], "--user-agent"), (["--arguments-separator", "a/b"], "--arguments-separator"),
        (["--url-replacements", "nothing"], "--url-replacements"),
    ])
    func listenerAndFetchingMistakesExit64(arguments: [String], mentions: String) async throws {
        let (status, error) = try await ServeLifecycleTests.runOffPool(arguments)
        #expect(status == 64, "\(arguments): \(error)")
        #expect(error.contains(mentions), "\(error)")
    }

    /// The port of `base` (`http://127.0.0.1:PORT`).
    static func port(_ base: String) throws -> Int { try #require(Int(base.split(separator: ":").last ?? "")) }

    /// Starts `webimage serve` with `environment` and no `--port`, runs `body` with its first line (`listening on …`)
    /// and returns that line and `body`'s result.
    static func serveLine<T: Sendable>(
        environment: [String: String], _ body: (String) async throws -> T
    ) async throws -> (String, T) {
        let executable = try #require(ServeCommandTests.executable, "webimage was not built next to the tests")
        let process = Process()
        process.executableURL = executable
        process.arguments = ["serve"]
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("wis-serve-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        process.environment = ["PATH": "/usr/bin:/bin", "XDG_CACHE_HOME": cache.path].merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        let line = await ServeLifecycleTests.offPool { ServeCommandTests.firstLine(of: output) }
        return (line, try await body(line))
    }
}
