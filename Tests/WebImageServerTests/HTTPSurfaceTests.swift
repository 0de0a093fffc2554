import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebImage
import WebImageServer

/// The HTTP surface as imgproxy 4's router shows it: `HEAD` on any path, the `Server` header, `/health` and its
/// second path, `Vary` only on images and 304s.
@Suite("Server: imgproxy's HTTP surface")
struct HTTPSurfaceTests {
    static let requestID = HTTPFields.Element.Name("X-Request-ID")!

    static func name(_ text: String) -> HTTPFields.Element.Name { HTTPFields.Element.Name(text)! }

    /// imgproxy's `HEAD /*`: 200 `text/plain`, no body, whatever the path: a signed URL, an unsigned one on a server
    /// with a key, garbage; nothing is fetched or processed.
    @Test func headAnswers200PlainTextWithoutLookingAtThePath() async throws {
        let signer = try #require(URLSigner(hexKey: "736563726574", hexSalt: "68656c6c6f"))
        try await ServerHarness.run(configure: {
            $0.signer = signer
            $0.allowOrigin = "https://example.com"
        }) { harness in
            let path = "/w:10/plain/" + harness.source("/geometry.png")
            let signed = "/" + signer.signature(for: path) + path
            #expect(try await harness.get(signed).status == .ok, "the signed URL is good")
            let fetched = harness.origin.stats.total
            for url in [signed, "/insecure" + path, "/garbage/!!/x", "/", "/health", "/metrics", "/info/x"] {
                let head = try await harness.get(url, method: .head)
                #expect(head.status == .ok, "\(url)")
                #expect(head.headers[.contentType] == "text/plain", "\(url)")
                #expect(head.body.readableBytes == 0 && head.headers[.eTag] == nil, "\(url)")
                #expect(head.headers[.cacheControl] == "max-age=31536000, public", "imgproxy's writer: the TTL")
                #expect(head.headers[.accessControlAllowOrigin] == "https://example.com", "\(url)")
                #expect(head.headers[.accessControlAllowMethods] == "GET, OPTIONS", "\(url)")
                #expect(head.headers[.server] == "imgproxy" && head.headers[Self.requestID] != nil, "\(url)")
            }
            for url in ["/", "/health", "/metrics", "/info/x", "/insecure" + path] {
                #expect(try await harness.get(url, method: .options).status == .ok, "OPTIONS \(url)")
            }
            #expect(harness.origin.stats.total == fetched, "no HEAD reached the origin")
            let metrics = MetricsText(String(buffer: try await harness.get("/metrics").body))
            #expect(metrics.value("requests_total") == 1, "HEADs are not image requests")
        }
    }

    @Test func everyAnswerSaysServerImgproxyAndCarriesARequestID() async throws {
        try await ServerHarness.run { harness in
            let answers = [
                try await harness.get(harness.url("w:10", "/geometry.png")),
                try await harness.get(harness.url("w:10", "/status/404")),
                try await harness.get("/insecure/w:x/plain/http://a"),
                try await harness.get("/health"), try await harness.get("/metrics"), try await harness.get("/"),
                try await harness.get("/x", method: .options),
            ]
            for answer in answers {
                #expect(answer.headers[.server] == "imgproxy", "\(answer.status)")
                #expect(answer.headers[Self.requestID]?.count == 21, "\(answer.status)")
            }
            let given = try await harness.get(
                harness.url("w:10", "/geometry.png"), headers: [Self.requestID: "abc-1_Z"])
            #expect(given.headers[Self.requestID] == "abc-1_Z")
        }
    }

    /// A method no route has gets the router's 404 with the headers every answer carries, as imgproxy's router
    /// answers it; a `GET` to the server's own paths (`/health/...` included) still reaches their routes, not the
    /// image handler that takes every other `GET` directly.
    @Test func unknownMethodsGetTheStandardHeadersAndOwnPathsKeepTheirRoutes() async throws {
        try await ServerHarness.run(configure: { $0.http.healthCheckPath = "/ping/me" }) { harness in
            for method in [HTTPRequest.Method.post, .put, .delete, .patch] {
                for path in ["/x", "/insecure/w:10/plain/" + harness.source("/geometry.png"), "/health"] {
                    let answer = try await harness.get(path, method: method)
                    #expect(answer.status == .notFound || answer.status == .methodNotAllowed, "\(method) \(path)")
                    #expect(answer.headers[Self.requestID]?.count == 21, "\(method) \(path)")
                    #expect(answer.headers[.server] == "imgproxy", "\(method) \(path)")
                }
            }
            #expect(String(buffer: try await harness.get("/health").body) == "imgproxy is running")
            #expect(String(buffer: try await harness.get("/ping/me").body) == "imgproxy is running")
            #expect(try await harness.get("/metrics").headers[.contentType]?.hasPrefix("text/plain") == true)
            #expect(try await harness.get("/").headers[.contentType] == "text/html; charset=utf-8")
            let image = try await harness.get(harness.url("w:10", "/geometry.png"))
            #expect(image.status == .ok && image.headers[.contentType] == "image/png")
            #expect(harness.origin.stats.total == 1, "only the image request fetched")
        }
    }

    @Test func serverNameHealthMessageAndSecondHealthPathAreSettings() async throws {
        try await ServerHarness.run(configure: {
            $0.http.serverName = "images/2"
            $0.http.healthCheckMessage = "all good"
            $0.http.healthCheckPath = "/ping/me"
        }) { harness in
            for path in ["/health", "/ping/me"] {
                let health = try await harness.get(path)
                #expect(health.status == .ok && String(buffer: health.body) == "all good", "\(path)")
                #expect(health.headers[.cacheControl] == "no-cache" && health.headers[.server] == "images/2")
            }
            #expect(try await harness.get(harness.url("w:10", "/geometry.png")).headers[.server] == "images/2")
            #expect(harness.origin.stats.total == 1, "the health paths fetch nothing")
        }
    }

    @Test func healthSettingsOutsideTheirRangeAreConfigurationErrors() throws {
        for (change, setting) in [
            ({ (c: inout ImageServerConfiguration) in c.http.serverName = "a\r\nb" }, "server-name"),
            ({ (c: inout ImageServerConfiguration) in c.http.serverName = "" }, "server-name"),
            ({ (c: inout ImageServerConfiguration) in c.http.healthCheckPath = "ping" }, "health-check-path"),
            ({ (c: inout ImageServerConfiguration) in c.http.healthCheckPath = "/a b" }, "health-check-path"),
            ({ (c: inout ImageServerConfiguration) in c.http.etagBuster = "a\"b" }, "etag-buster"),
        ] {
            var configuration = ImageServerConfiguration()
            change(&configuration)
            #expect(throws: ImageServerConfigurationError.self, "\(setting)") { try configuration.validate() }
            do { try configuration.validate() } catch { #expect(error.setting == setting) }
        }
    }

    /// imgproxy sets `Vary` on images and 304s only: never on an error.
    @Test func varyIsOnImagesAnd304sNotOnErrors() async throws {
        try await ServerHarness.run(configure: { $0.autoWebP = true }) { harness in
            let image = try await harness.get(harness.url("w:10", "/geometry.png"))
            #expect(image.headers[.vary] == "Accept")
            let etag = try #require(image.headers[.eTag])
            let notModified = try await harness.get(harness.url("w:10", "/geometry.png"), headers: [.ifNoneMatch: etag])
            #expect(notModified.status == .notModified && notModified.headers[.vary] == "Accept")
            for url in [harness.url("w:10", "/status/404"), "/insecure/w:x/plain/http://a", "/bad"] {
                let error = try await harness.get(url)
                #expect(error.status.code >= 400 && error.headers[.vary] == nil, "\(url)")
            }
        }
    }

    /// imgproxy's `IMGPROXY_SET_CANONICAL_HEADER`: `Link: <source>; rel="canonical"` on images of `http(s)` sources,
    /// first and repeated answers alike; not on 304s or errors.
    @Test func theCanonicalHeaderNamesTheSource() async throws {
        try await ServerHarness.run(configure: { $0.http.setsCanonicalHeader = true }) { harness in
            let url = harness.url("w:10", "/geometry.png")
            let link = "<\(harness.source("/geometry.png"))>; rel=\"canonical\""
            let first = try await harness.get(url)
            #expect(first.headers[HTTPFields.Element.Name("Link")!] == link)
            let again = try await harness.get(url)
            #expect(again.headers[HTTPFields.Element.Name("Link")!] == link)
            let etag = try #require(first.headers[.eTag])
            let notModified = try await harness.get(url, headers: [.ifNoneMatch: etag])
            #expect(notModified.status == .notModified && notModified.headers[HTTPFields.Element.Name("Link")!] == nil)
            let error = try await harness.get(harness.url("w:10", "/status/404"))
            #expect(error.headers[HTTPFields.Element.Name("Link")!] == nil)
        }
        try await ServerHarness.run { harness in
            let plain = try await harness.get(harness.url("w:10", "/geometry.png"))
            #expect(plain.headers[HTTPFields.Element.Name("Link")!] == nil, "off by default")
        }
    }

    /// imgproxy's `IMGPROXY_ENABLE_DEBUG_HEADERS`, on a result made now and on one from memory or from disk.
    @Test(arguments: [64 * 1024 * 1024, 0])
    func debugHeadersDescribeTheSourceAndTheResult(memoryBytes: Int) async throws {
        let png = try ImageCoders.default.encode(Image(pixels: TestImages.geometry), as: .png, options: .default)
        try await ServerHarness.run(configure: {
            $0.http.sendsDebugHeaders = true
            $0.resultMemoryCacheSize = memoryBytes
        }) { harness in
            harness.origin.register(png, at: "/debug.png")
            let url = harness.url("w:10", "/debug.png")
            for _ in 0..<3 {
                let answer = try await harness.get(url)
                #expect(answer.headers[Self.name("X-Origin-Width")] == "200")
                #expect(answer.headers[Self.name("X-Origin-Height")] == "100")
                #expect(answer.headers[Self.name("X-Origin-Content-Length")] == String(png.count))
                #expect(answer.headers[Self.name("X-Result-Width")] == "10")
                #expect(answer.headers[Self.name("X-Result-Height")] == "5")
            }
            #expect(harness.origin.requestCount("/debug.png") == 1, "the later answers came from a tier")
        }
        try await ServerHarness.run { harness in
            let answer = try await harness.get(harness.url("w:10", "/geometry.png"))
            #expect(answer.headers[Self.name("X-Origin-Width")] == nil, "off by default")
        }
    }
}
