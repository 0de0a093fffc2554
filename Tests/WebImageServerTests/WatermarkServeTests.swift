import Foundation
import Testing
import WebImage
import WebImageTesting

/// `webimage serve`'s watermark flags and variables, on the real binary.
@Suite("Server: webimage serve watermark settings", .timeLimit(.minutes(1)))
struct WatermarkServeTests {
    static let base64 = WatermarkServerTests.mark.base64EncodedString()

    @Test(arguments: [
        (["--watermark-data", "!!!"], "--watermark-data"), (["--watermark-data", "aGVsbG8="], "--watermark-data"),
        (["--watermark-path", "/nonexistent/wm.png"], "--watermark-path"),
        (["--watermark-url", "ftp://e.example/wm.png"], "--watermark-url"),
        (["--watermark-data", base64, "--watermark-opacity", "0"], "--watermark-opacity"),
        (["--watermark-data", base64, "--watermark-opacity", "1.5"], "--watermark-opacity"),
        (["--watermark-data", base64, "--watermark-opacity", "nan"], "--watermark-opacity"),
    ])
    func badWatermarkFlagsExit64(arguments: [String], mentions: String) async throws {
        let (status, error) = try await ServeLifecycleTests.runOffPool(arguments)
        #expect(status == 64, "\(arguments): \(error)")
        #expect(error.contains(mentions), "\(error)")
    }

    @Test func imgproxysVariablesAreRead() async throws {
        let data = try await ServeLifecycleTests.runOffPool([], environment: ["IMGPROXY_WATERMARK_DATA": "!!!"])
        #expect(data.status == 64 && data.error.contains("--watermark-data"), "\(data.error)")
        let opacity = try await ServeLifecycleTests.runOffPool(
            [], environment: ["WEBIMAGE_WATERMARK_DATA": Self.base64, "IMGPROXY_WATERMARK_OPACITY": "much"])
        #expect(opacity.status == 64 && opacity.error.contains("IMGPROXY_WATERMARK_OPACITY"), "\(opacity.error)")
    }

    @Test func theServedResultCarriesTheWatermark() async throws {
        let origin = TestImageServer()
        try await origin.start()
        TestImages.register(on: origin)
        let log = try await ServeLifecycleTests.serve(
            environment: ["IMGPROXY_WATERMARK_DATA": Self.base64], arguments: ["--no-cache"]
        ) { base in
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("wm-\(UUID().uuidString).png")
            defer { try? FileManager.default.removeItem(at: file) }
            let url = base + "/insecure/wm:1:nowe/plain/" + origin.url("/geometry.png").absoluteString
            _ = try await ServeLifecycleTests.offPool { Result { try ServeCommandTests.curl(["-o", file.path, url]) } }
                .get()
            let image = try ImageCoders.default.decode(try Data(contentsOf: file), options: .default)
            #expect(image.pixels[0, 0] == WatermarkServerTests.green)
            #expect(image.pixels[30, 30] == RGBA(red: 255, green: 0, blue: 0))
        }
        #expect(!log.contains("IMGPROXY_WATERMARK"), "a variable that is read is not named as ignored: \(log)")
        try await origin.shutdown()
    }

    /// `IMGPROXY_WATERMARK_URL` and `IMGPROXY_FALLBACK_IMAGE_URL` are fetched when the server starts, as imgproxy
    /// fetches them; a URL that cannot be fetched stops the start (exit 64, naming the setting).
    @Test func imageURLsAreFetchedAtStart() async throws {
        let origin = TestImageServer()
        try await origin.start()
        TestImages.register(on: origin)
        origin.register(WatermarkServerTests.mark, at: "/wm.png")
        let environment = [
            "IMGPROXY_WATERMARK_URL": origin.url("/wm.png").absoluteString,
            "IMGPROXY_FALLBACK_IMAGE_URL": origin.url("/geometry.png").absoluteString,
            "IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES": "true",
        ]
        do {
            _ = try await ServeLifecycleTests.serve(environment: environment, arguments: ["--no-cache"]) { base in
                #expect(origin.requestCount("/wm.png") == 1 && origin.requestCount("/geometry.png") == 1)
                let url = base + "/insecure/wm:1:nowe/w:40/plain/" + origin.url("/status/404").absoluteString + "@png"
                let answer = try await ServeImgproxyEnvironmentTests.get(url)
                #expect(answer.status == 200, "the fallback")
                let image = try ImageCoders.default.decode(answer.data, options: .default)
                #expect(image.pixels[0, 0] == WatermarkServerTests.green && image.width == 40)
            }
            var missing = environment
            missing["IMGPROXY_FALLBACK_IMAGE_URL"] = origin.url("/status/404").absoluteString
            let failed = try await ServeLifecycleTests.runOffPool([], environment: missing)
            #expect(failed.status == 64 && failed.error.contains("--fallback-image-url"), "\(failed.error)")
        } catch {
            try await origin.shutdown()
            throw error
        }
        try await origin.shutdown()
    }
}
