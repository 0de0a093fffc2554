import Foundation
import Testing
import WebImage
import WebImageTesting

/// `webimage serve`'s format settings as a real process: `--auto-jxl`, `--enforce-jxl` and `--png-gamma` from their
/// flags and from imgproxy's (or our) variables.
@Suite("Server: webimage serve's format settings", .timeLimit(.minutes(1)))
struct ServeFormatSettingsTests {
    static let accept = [("Accept", "image/jxl,image/webp,*/*")]

    /// Starts `webimage serve` with `arguments` and `environment` in front of a fresh origin, runs `body` with the
    /// base URL and a function making unsigned URLs of origin paths, then stops both.
    static func serving(
        _ arguments: [String], environment: [String: String] = [:],
        _ body: (String, (String, String) -> String) async throws -> Void
    ) async throws {
        let origin = TestImageServer()
        try await origin.start()
        origin.register(try ServerFormatsTests.linearPNG(), at: "/linear.png")
        do {
            _ = try await ServeLifecycleTests.serve(environment: environment, arguments: arguments) { base in
                try await body(base) { options, path in
                    "\(base)/insecure/\(options)/plain/\(origin.url(path).absoluteString)"
                }
            }
        } catch {
            try await origin.shutdown()
            throw error
        }
        try await origin.shutdown()
    }

    @Test(arguments: [
        (["--auto-jxl"], [String: String]()), ([], ["IMGPROXY_AUTO_JXL": "true"]), ([], ["WEBIMAGE_AUTO_JXL": "1"]),
    ])
    func autoJXLFromItsFlagOrVariable(arguments: [String], environment: [String: String]) async throws {
        try await Self.serving(arguments, environment: environment) { _, url in
            let answer = try await ServeImgproxyEnvironmentTests.get(url("w:4", "/linear.png"), headers: Self.accept)
            #expect(answer.headers["content-type"] == "image/jxl")
            #expect(ImageFormat.sniff(answer.data) == .jxl)
        }
    }

    @Test func enforcesJXLFromImgproxysVariable() async throws {
        try await Self.serving([], environment: ["IMGPROXY_ENFORCE_JXL": "true"]) { _, url in
            let answer = try await ServeImgproxyEnvironmentTests.get(
                url("w:4", "/linear.png") + "@png", headers: Self.accept)
            #expect(answer.headers["content-type"] == "image/jxl")
        }
    }

    /// `IMGPROXY_JXL_EFFORT` (or `--jxl-effort`) reaches libjxl: efforts 1 and 9 make different files of one source,
    /// and the same effort the same file.
    @Test func jxlEffortFromImgproxysVariableOrItsFlag() async throws {
        let origin = TestImageServer()
        try await origin.start()
        origin.register(ParityServerTests.noisy, at: "/noisy.jpg", contentType: "image/jpeg")
        let settings: [([String], [String: String])] = [
            ([], ["IMGPROXY_JXL_EFFORT": "1"]), (["--jxl-effort", "9"], ["IMGPROXY_JXL_EFFORT": "1"]),
            (["--jxl-effort", "1"], [:]),
        ]
        var files: [Data] = []
        do {
            for (arguments, environment) in settings {
                _ = try await ServeLifecycleTests.serve(environment: environment, arguments: arguments) { base in
                    let url = "\(base)/insecure/w:200/plain/\(origin.url("/noisy.jpg").absoluteString)@jxl"
                    let answer = try await ServeImgproxyEnvironmentTests.get(url)
                    #expect(answer.headers["content-type"] == "image/jxl")
                    files.append(answer.data)
                }
            }
        } catch {
            try await origin.shutdown()
            throw error
        }
        try await origin.shutdown()
        #expect(files.count == 3)
        #expect(files.first != files.dropFirst().first, "effort 9 (the flag wins) is not effort 1")
        #expect(files.first == files.last, "the variable and the flag give the same effort 1")
    }

    /// The PNG's `gAMA` says linear light: ignored by default (128, as imgproxy), applied with `--png-gamma` (188).
    @Test(arguments: [([], 128), (["--png-gamma"], 188)])
    func pngGammaOnlyWithItsFlag(arguments: [String], expected: Int) async throws {
        try await Self.serving(arguments) { _, url in
            let answer = try await ServeImgproxyEnvironmentTests.get(url("w:4", "/linear.png") + "@png")
            let image = try ImageCoders.default.decode(answer.data, options: .default)
            #expect(abs(Int(image.pixels[1, 1].red) - expected) <= 2)
        }
    }
}
