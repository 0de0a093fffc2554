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
        let origin = TestImageServer()
        try await origin.start()
        origin.register(ServerSVGTests.hostile, at: "/logo.svg", contentType: "image/svg+xml")
        var answer: ServeImgproxyEnvironmentTests.Answer?
        _ = try await ServeLifecycleTests.serve(environment: environment, arguments: arguments) { base in
            answer = try await ServeImgproxyEnvironmentTests.get(
                base + "/insecure/w:10/plain/" + origin.url("/logo.svg").absoluteString)
        }
        try await origin.shutdown()
        return try #require(answer)
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
