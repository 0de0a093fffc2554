import Foundation
import Testing
import WebImage
import WebImageTesting

/// `webimage serve`'s SVG settings read from imgproxy's variables and from the flags, as a real process.
@Suite("Server: webimage serve's SVG settings", .timeLimit(.minutes(1)))
struct ServeSVGSettingsTests {
    /// Runs `webimage serve` with `arguments` and `environment`, answers `GET` of the origin's `/logo.svg` through it
    /// (no format in the URL), and stops it.
    private static func answer(
        arguments: [String], environment: [String: String]
    ) async throws
        -> ServeImgproxyEnvironmentTests.Answer
    {
        let executable = try #require(ServeCommandTests.executable, "webimage was not built next to the tests")
        let origin = TestImageServer()
        try await origin.start()
        origin.register(ServerSVGTests.hostile, at: "/logo.svg", contentType: "image/svg+xml")
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("wis-svg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let process = Process()
        process.executableURL = executable
        process.arguments = ["serve"] + arguments
        process.environment = [
            "PATH": "/usr/bin:/bin", "XDG_CACHE_HOME": cache.path, "IMGPROXY_BIND": "127.0.0.1:0",
            "IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES": "true",
        ].merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        let base = "http://127.0.0.1:\(try await ServeLifecycleTests.port(of: output))"
        let answer = try await ServeImgproxyEnvironmentTests.get(
            base + "/insecure/w:10/plain/" + origin.url("/logo.svg").absoluteString)
        try await origin.shutdown()
        return answer
    }

    @Test func imgproxysSanitizeVariableTurnsSanitisingOff() async throws {
        let sanitised = try await Self.answer(arguments: [], environment: [:])
        #expect(sanitised.headers["content-type"] == "image/svg+xml" && !sanitised.body.contains("alert"))
        let raw = try await Self.answer(arguments: [], environment: ["IMGPROXY_SANITIZE_SVG": "false"])
        #expect(raw.data == ServerSVGTests.hostile)
        let ours = try await Self.answer(
            arguments: ["--no-sanitize-svg"], environment: ["IMGPROXY_SANITIZE_SVG": "true"])
        #expect(ours.data == ServerSVGTests.hostile, "the flag wins over imgproxy's variable")
    }

    @Test func alwaysRasterizingFromTheFlagOrTheVariable() async throws {
        for (arguments, environment) in [
            (["--always-rasterize-svg"], [:]), ([], ["IMGPROXY_ALWAYS_RASTERIZE_SVG": "1"]),
        ] as [([String], [String: String])] {
            let answer = try await Self.answer(arguments: arguments, environment: environment)
            #expect(answer.headers["content-type"] == "image/png", "\(arguments) \(environment)")
            #expect(try ImageCoders.default.info(of: answer.data).width == 10)
        }
    }
}
