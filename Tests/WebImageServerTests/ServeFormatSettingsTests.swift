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
    /// and the same effort the same file; without a setting, imgproxy's effort 4.
    @Test func jxlEffortFromImgproxysVariableOrItsFlag() async throws {
        let files = try await Self.results(
            "jxl",
            [
                ([], ["IMGPROXY_JXL_EFFORT": "1"]), (["--jxl-effort", "9"], ["IMGPROXY_JXL_EFFORT": "1"]),
                (["--jxl-effort", "1"], [:]), ([], [:]), (["--jxl-effort", "4"], [:]),
            ])
        #expect(files[0] != files[1], "effort 9 (the flag wins) is not effort 1")
        #expect(files[0] == files[2], "the variable and the flag give the same effort 1")
        #expect(files[3] == files[4] && files[3] != files[0], "imgproxy's default effort 4")
    }

    /// `IMGPROXY_WEBP_EFFORT` and `IMGPROXY_WEBP_PRESET` (or their flags) reach libwebp; without them, imgproxy's
    /// method 4 and default preset. `IMGPROXY_AVIF_SPEED`'s default is imgproxy's 8.
    @Test func webpEffortAndPresetAndAVIFSpeedFromImgproxysVariables() async throws {
        let webp = try await Self.results(
            "webp",
            [
                ([], [:]), ([], ["IMGPROXY_WEBP_EFFORT": "4", "IMGPROXY_WEBP_PRESET": "default"]),
                ([], ["IMGPROXY_WEBP_EFFORT": "1"]), (["--webp-effort", "1"], [:]),
                ([], ["IMGPROXY_WEBP_PRESET": "text"]),
            ])
        #expect(webp[0] == webp[1], "imgproxy's defaults")
        #expect(webp[2] == webp[3] && webp[2] != webp[0], "effort 1 from the variable or the flag")
        #expect(webp[4] != webp[0], "the text preset")
        let avif = try await Self.results(
            "avif", [([], [:]), ([], ["IMGPROXY_AVIF_SPEED": "8"]), (["--avif-speed", "6"], [:])])
        #expect(avif[0] == avif[1] && avif[0] != avif[2], "imgproxy's default speed 8")
    }

    /// The `format` results of a noisy photo from one `webimage serve` per setting (its arguments and environment).
    static func results(_ format: String, _ settings: [([String], [String: String])]) async throws -> [Data] {
        let origin = TestImageServer()
        try await origin.start()
        origin.register(ParityServerTests.noisy, at: "/noisy.jpg", contentType: "image/jpeg")
        var files: [Data] = []
        do {
            for (arguments, environment) in settings {
                _ = try await ServeLifecycleTests.serve(environment: environment, arguments: arguments) { base in
                    let url = "\(base)/insecure/w:200/plain/\(origin.url("/noisy.jpg").absoluteString)@\(format)"
                    let answer = try await ServeImgproxyEnvironmentTests.get(url)
                    #expect(answer.headers["content-type"] == "image/\(format)")
                    files.append(answer.data)
                }
            }
        } catch {
            try await origin.shutdown()
            throw error
        }
        try await origin.shutdown()
        try #require(files.count == settings.count)
        return files
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
