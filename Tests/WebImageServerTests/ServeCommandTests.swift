import Foundation
import Testing
import WebImageTesting

/// `webimage serve` as a real process, driven by `curl`.
@Suite("Server: webimage serve binary with curl")
struct ServeCommandTests {
    /// The built `webimage` executable next to the test bundle.
    static var executable: URL? { executable(named: "webimage") }

    /// The executable `name` of this package (a product or a snippet) built next to the test bundle.
    static func executable(named name: String) -> URL? {
        var candidates = [
            Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        ]
        candidates += candidates.map { $0.deletingLastPathComponent() }
        return candidates.map { $0.appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// What a started process has written to `pipe` up to its first line break (its `listening on` line).
    static func firstLine(of pipe: Pipe) -> String {
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        return String(decoding: line, as: UTF8.self)
    }

    /// Runs `curl arguments…` and returns its standard output.
    static func curl(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["--silent", "--show-error", "--max-time", "30"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test func servesSignedURLsToCurlAndPrintsTheRealPort() async throws {
        let executable = try #require(Self.executable, "webimage was not built next to the tests")
        let origin = TestImageServer()
        try await origin.start()
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("wis-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = executable
        process.arguments = [
            "serve", "--port", "0", "--key", "0011", "--salt", "2233", "--cache-dir", home.path,
            "--preset", "small=rs:fit:32:32",
        ]
        process.environment = ["WEBIMAGE_TTL": "123", "WEBIMAGE_ALLOW_LOOPBACK_SOURCES": "1", "PATH": "/usr/bin:/bin"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        defer {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            try? FileManager.default.removeItem(at: home)
        }
        let text = await ServeLifecycleTests.offPool { Self.firstLine(of: output) }
        let prefix = "listening on http://127.0.0.1:"
        #expect(text.hasPrefix(prefix), "\(text)")
        let port = try #require(Int(text.dropFirst(prefix.count).prefix { $0.isNumber }))
        #expect(port > 0)
        let base = "http://127.0.0.1:\(port)"

        // curl runs off the cooperative threads, which the origin in this process needs to answer the server.
        let curl = { (arguments: [String]) async throws -> String in
            try await ServeLifecycleTests.offPool { Result { try Self.curl(arguments) } }.get()
        }
        #expect(try await curl([base + "/health"]) == "imgproxy is running")
        let path = "/pr:small/plain/" + origin.url("/fixtures/corpus/images/gen_alpha.png").absoluteString + "@png"
        let signature = try Self.sign(path)
        let headers = try await curl(["-D", "-", "-o", "/dev/null", base + "/" + signature + path])
        #expect(headers.hasPrefix("HTTP/1.1 200"), "\(headers)")
        #expect(headers.lowercased().contains("content-type: image/png"))
        #expect(headers.lowercased().contains("cache-control: max-age=123, public"))
        let refused = try await curl(["-o", "/dev/null", "-w", "%{http_code}", base + "/insecure" + path])
        #expect(refused == "403")
        try await origin.shutdown()
    }

    /// The signature of `path` with key 0x0011 and salt 0x2233, computed by openssl as a user would.
    static func sign(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c",
            "(printf '\\042\\063'; printf '%s' \"$1\") | openssl dgst -sha256 -mac HMAC -macopt hexkey:0011 -binary"
                + " | base64 | tr '+/' '-_' | tr -d '=\\n'",
            "sign", path,
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
