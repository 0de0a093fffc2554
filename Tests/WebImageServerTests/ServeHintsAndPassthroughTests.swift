import Foundation
import Testing
import WebImage
import WebImageServer
import WebImageTesting

/// `webimage serve` with imgproxy's `IMGPROXY_ENABLE_CLIENT_HINTS` and `IMGPROXY_CACHE_CONTROL_PASSTHROUGH`, as a real
/// process in front of a local origin that sends `Cache-Control` and `Expires`: the hints size the result and are
/// named in `Vary`; the origin's headers answer the miss, the memory hit and, after a restart on the same cache, the
/// disk hit.
@Suite("Server: webimage serve with client hints and Cache-Control passthrough", .timeLimit(.minutes(1)))
struct ServeHintsAndPassthroughTests {
    @Test func bothVariablesTakeEffectInEveryTier() async throws {
        let origin = TestImageServer()
        try await origin.start()
        let pixels = PixelBuffer(width: 200, height: 100, filledWith: RGBA(red: 9, green: 0, blue: 0))
        let png = try ImageCoders.default.encode(Image(pixels: pixels), as: .png, options: .default)
        origin.register(png, at: "/cc.png", headers: [("Cache-Control", "public, max-age=777")])
        origin.register(png, at: "/exp.png", headers: [("Expires", "Wed, 21 Oct 2015 07:28:00 GMT")])
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("wis-hints-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let environment = [
            "XDG_CACHE_HOME": cache.path, "IMGPROXY_ENABLE_CLIENT_HINTS": "true",
            "IMGPROXY_CACHE_CONTROL_PASSTHROUGH": "true", "IMGPROXY_TTL": "3600",
        ]
        let url = "/insecure/w:40/plain/" + origin.url("/cc.png").absoluteString
        for round in 0..<2 {
            let errors = try await ServeLifecycleTests.serve(environment: environment) { base in
                for _ in 0..<2 {
                    let image = try await ServeImgproxyEnvironmentTests.get(base + url, headers: [("DPR", "2")])
                    #expect(image.status == 200 && image.headers["cache-control"] == "public, max-age=777", "\(round)")
                    #expect(image.headers["vary"] == "Sec-CH-DPR, DPR, Sec-CH-Width, Width")
                    let decoded = try ImageCoders.default.decode(image.data, options: .default)
                    #expect(decoded.width == 80, "40 CSS pixels at a DPR of 2")
                    let plain = try await ServeImgproxyEnvironmentTests.get(base + url)
                    #expect(try ImageCoders.default.decode(plain.data, options: .default).width == 40)
                }
                let expired = try await ServeImgproxyEnvironmentTests.get(
                    base + "/insecure/w:40/plain/" + origin.url("/exp.png").absoluteString)
                #expect(expired.headers["cache-control"] == "max-age=3600, public", "a past Expires: the TTL")
            }
            for name in ["ENABLE_CLIENT_HINTS", "CACHE_CONTROL_PASSTHROUGH"] {
                #expect(!errors.split(separator: "\n").contains { $0.contains("not supported") && $0.contains(name) })
            }
        }
        #expect(origin.requestCount("/cc.png") == 1, "the second process used its disk cache")
        try await origin.shutdown()
    }
}
