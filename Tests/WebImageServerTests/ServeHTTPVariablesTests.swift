import Foundation
import Testing
import WebImage
import WebImageServer
import WebImageTesting

/// `webimage serve` with only imgproxy's HTTP variables, as a real process: the `Server` header, the health check,
/// the validators and their busters.
@Suite("Server: webimage serve with imgproxy's HTTP variables", .timeLimit(.minutes(1)))
struct ServeHTTPVariablesTests {
    @Test func imgproxysHTTPVariablesTakeEffect() async throws {
        let origin = TestImageServer()
        try await origin.start()
        let pixels = PixelBuffer(width: 40, height: 20, filledWith: RGBA(red: 9, green: 0, blue: 0))
        origin.register(
            try ImageCoders.default.encode(Image(pixels: pixels), as: .png, options: .default), at: "/e.png",
            etag: "\"e1\"")
        let url = "/insecure/w:10/plain/" + origin.url("/e.png").absoluteString
        let busted = try await ServeLifecycleTests.serve(environment: [
            "IMGPROXY_SERVER_NAME": "pics", "IMGPROXY_HEALTH_CHECK_MESSAGE": "fine",
            "IMGPROXY_HEALTH_CHECK_PATH": "/healthz", "IMGPROXY_ETAG_BUSTER": "v2",
            "IMGPROXY_LAST_MODIFIED_BUSTER": "2020-01-01T00:00:00Z", "IMGPROXY_SET_CANONICAL_HEADER": "true",
            "IMGPROXY_ENABLE_DEBUG_HEADERS": "true",
        ]) { base in
            for path in ["/health", "/healthz"] {
                let health = try await ServeImgproxyEnvironmentTests.get(base + path)
                #expect(health.status == 200 && health.body == "fine" && health.headers["server"] == "pics", "\(path)")
            }
            let image = try await ServeImgproxyEnvironmentTests.get(base + url)
            #expect(image.status == 200 && image.headers["server"] == "pics")
            #expect(image.headers["etag"] == "\"v2/ImUxIg\"", "the origin's \"e1\" under the buster")
            #expect(image.headers["last-modified"] == "Wed, 01 Jan 2020 00:00:00 GMT")
            #expect(image.headers["x-origin-width"] == "40" && image.headers["x-result-width"] == "10")
            #expect(image.headers["link"] == "<\(origin.url("/e.png").absoluteString)>; rel=\"canonical\"")
            let again = try await ServeImgproxyEnvironmentTests.get(
                base + url, headers: [("If-None-Match", "\"v2/ImUxIg\"")])
            #expect(again.status == 304)
        }
        for name in [
            "SERVER_NAME", "HEALTH_CHECK", "ETAG_BUSTER", "LAST_MODIFIED_BUSTER", "SET_CANONICAL_HEADER",
            "DEBUG_HEADERS",
        ] {
            #expect(!busted.split(separator: "\n").contains { $0.contains("not supported") && $0.contains(name) })
        }
        _ = try await ServeLifecycleTests.serve(environment: [
            "IMGPROXY_USE_ETAG": "false", "IMGPROXY_USE_LAST_MODIFIED": "false",
        ]) { base in
            let image = try await ServeImgproxyEnvironmentTests.get(base + url)
            #expect(image.status == 200 && image.headers["server"] == "imgproxy")
            #expect(
                image.headers["etag"] == nil && image.headers["last-modified"] == nil && image.headers["link"] == nil)
            #expect(image.headers["x-origin-width"] == nil)
            let again = try await ServeImgproxyEnvironmentTests.get(base + url, headers: [("If-None-Match", "\"e1\"")])
            #expect(again.status == 200)
        }
        try await origin.shutdown()
    }
}
