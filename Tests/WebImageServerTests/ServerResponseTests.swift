import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebImage
import WebImageServer

@Suite("Server: responses over live HTTP")
struct ServerResponseTests {
    @Test func healthAnswersImgproxysPlainTextWithNoCache() async throws {
        try await ServerHarness.run { harness in
            let response = try await harness.get("/health")
            #expect(response.status == .ok)
            #expect(String(buffer: response.body) == "imgproxy is running")
            #expect(response.headers[.server] == "imgproxy")
            #expect(response.headers[.contentType]?.hasPrefix("text/plain") == true)
            #expect(response.headers[.cacheControl] == "no-cache")
            #expect(harness.origin.stats.total == 0)
        }
    }

    @Test(arguments: [
        ("rs:fit:50:50", 50, 25), ("rs:fill:50:50", 50, 50), ("rs:fill-down:300:125", 200, 83),
        ("rs:force:50:80", 50, 80), ("rs:auto:50:100", 50, 25), ("rs:fit:300:300:1", 300, 150),
        ("rs:fit:300:300:0:1", 300, 300), ("w:100", 100, 50), ("h:20", 40, 20), ("s:30:30", 30, 15),
        ("rt:fill/w:20/h:20", 20, 20), ("c:100:50", 100, 50), ("c:0.5:0.5/rs:fill:20:20", 20, 20),
        ("rot:90", 100, 200), ("rs:fit:50:50/dpr:2", 100, 50), ("g:sm/rs:fill:40:40", 40, 40),
        ("bl:2/sh:1/rs:fit:20:20", 20, 10), ("ex:1/rs:fit:300:300", 300, 300),
    ])
    func optionsGiveImgproxysSizes(options: String, width: Int, height: Int) async throws {
        try await ServerHarness.run { harness in
            let response = try await harness.get(harness.url(options, "/geometry.png"))
            #expect(response.status == .ok, "\(String(buffer: response.body))")
            let image = try ServerHarness.image(response)
            #expect((image.width, image.height) == (width, height))
        }
    }

    @Test func formatComesFromTheExtensionTheOptionOrTheSource() async throws {
        try await ServerHarness.run { harness in
            #expect(
                try await harness.get(harness.url("w:10", "/geometry.png", ext: "jpg")).headers[.contentType]
                    == "image/jpeg")
            #expect(try await harness.get(harness.url("f:webp", "/geometry.png")).headers[.contentType] == "image/webp")
            #expect(try await harness.get(harness.url("w:10", "/geometry.jpg")).headers[.contentType] == "image/jpeg")
            #expect(try await harness.get(harness.url("w:10", "/geometry.png")).headers[.contentType] == "image/png")
            // A source format outside the preferred ones: JPEG when opaque, PNG with alpha.
            let opaque = try await harness.get(harness.url("w:10", "/heic_rgb.heic"))
            #expect(opaque.status == .ok && opaque.headers[.contentType] == "image/jpeg")
            let transparent = try await harness.get(harness.url("w:10", "/heic_alpha.heic"))
            #expect(transparent.status == .ok && transparent.headers[.contentType] == "image/png")
            let flattened = try await harness.get(harness.url("", "/alpha.png", ext: "jpg"))
            let pixel = try ServerHarness.image(flattened).pixels[10, 10]
            #expect(pixel.alpha == 255 && pixel.red > 130, "transparent pixels flattened on white: \(pixel)")
            let onBlack = try ServerHarness.image(
                try await harness.get(harness.url("bg:000000", "/alpha.png", ext: "jpg")))
            #expect(onBlack.pixels[10, 10].red < 20)
        }
    }

    @Test func acceptNegotiatesWebPAndImagesVaryButErrorsDoNot() async throws {
        try await ServerHarness.run(configure: { $0.autoWebP = true }) { harness in
            let url = harness.url("w:10", "/geometry.png")
            let webp = try await harness.get(url, headers: [.accept: "image/avif,image/webp,*/*"])
            #expect(webp.headers[.contentType] == "image/webp")
            #expect(webp.headers[.vary] == "Accept")
            let plain = try await harness.get(url, headers: [.accept: "*/*"])
            #expect(plain.headers[.contentType] == "image/png")
            #expect(plain.headers[.vary] == "Accept")
            #expect(plain.headers[.eTag] == webp.headers[.eTag], "the origin's ETag on every variant, as imgproxy's")
            let explicit = try await harness.get(
                harness.url("w:10", "/geometry.png", ext: "png"), headers: [.accept: "image/webp"])
            #expect(explicit.headers[.contentType] == "image/png")
            let error = try await harness.get("/insecure/w:x/plain/http://a")
            #expect(error.status == .notFound && error.headers[.vary] == nil, "imgproxy varies only images and 304s")
        }
        // Off by default, as imgproxy's IMGPROXY_AUTO_WEBP.
        try await ServerHarness.run { harness in
            let response = try await harness.get(harness.url("w:10", "/geometry.png"), headers: [.accept: "image/webp"])
            #expect(response.headers[.contentType] == "image/png")
            #expect(response.headers[.vary] == nil)
        }
    }

    @Test func animationsStayAnimatedUpToTheFrameLimit() async throws {
        try await ServerHarness.run(configure: {
            $0.limits.maxAnimationFrames = 3; $0.autoWebP = true
        }) { harness in
            let negotiated = try await harness.get(harness.url("w:20", "/anim.webp"), headers: [.accept: "image/webp"])
            #expect(negotiated.headers[.contentType] == "image/webp")
            let webp = try ServerHarness.image(negotiated)
            #expect(webp.frames.count == 3)
            #expect((webp.width, webp.height) == (20, 10))
            // Without a format: WebP is not a preferred format, so the first preferred one that animates, GIF.
            let plain = try await harness.get(harness.url("w:20", "/anim.webp"))
            #expect(plain.headers[.contentType] == "image/gif")
            #expect(try ServerHarness.image(plain).frames.count == 3)
            let png = try ServerHarness.image(try await harness.get(harness.url("w:20", "/anim.webp", ext: "png")))
            #expect(png.frames.count == 1)
        }
    }

    @Test func withoutAFormatAPreferredSourceFormatIsKeptElseTheFirstPreferredThatFits() async throws {
        try await ServerHarness.run { harness async throws in
            // imgproxy's determineOutputFormat with its default preferred formats (JPEG, PNG, GIF).
            #expect(try await Self.contentType(harness, "w:10", "/geometry.webp") == "image/jpeg")
            #expect(
                try await Self.contentType(harness, "w:10", "/alpha.webp") == "image/png",
                "an alpha channel expects transparency")
            #expect(
                try await Self.contentType(harness, "w:10/bg:ffffff", "/alpha.webp") == "image/jpeg",
                "a background flattens it")
            #expect(
                try await Self.contentType(harness, "rs:fit:300:300/ex:1", "/geometry.webp") == "image/png",
                "extend expects it")
            #expect(try await Self.contentType(harness, "rs:fit:300:300/ex:1", "/heic_rgb.heic") == "image/png")
            #expect(try await Self.contentType(harness, "w:10/bg:ffffff", "/heic_alpha.heic") == "image/jpeg")
            #expect(
                try await Self.contentType(harness, "w:10", "/geometry.png") == "image/png",
                "a preferred source format is kept")
            #expect(
                try await Self.contentType(harness, "w:10/ex:1", "/geometry.jpg") == "image/jpeg", "even when extended")
        }
        try await ServerHarness.run(configure: { $0.preferredFormats = [.webp, .png] }) { harness async throws in
            #expect(try await harness.get(harness.url("w:10", "/geometry.webp")).headers[.contentType] == "image/webp")
            #expect(try await harness.get(harness.url("w:10", "/geometry.jpg")).headers[.contentType] == "image/webp")
        }
    }

    /// The `Content-Type` of the result of `options` applied to the origin's `path`.
    static func contentType(_ harness: ServerHarness, _ options: String, _ path: String) async throws -> String? {
        try await harness.get(harness.url(options, path)).headers[.contentType]
    }

    @Test func everyResponseCarriesImgproxysSecurityPolicyAndARequestID() async throws {
        try await ServerHarness.run { harness in
            let csp = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox"
            let image = try await harness.get(harness.url("w:10", "/geometry.png"))
            let error = try await harness.get("/insecure/w:x/plain/http://a")
            let health = try await harness.get("/health")
            let landing = try await harness.get("/")
            let options = try await harness.get(harness.url("w:10", "/geometry.png"), method: .options)
            #expect(landing.status == .ok && landing.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(options.status == .ok)
            for response in [image, error, health, landing, options] {
                #expect(response.headers[.contentSecurityPolicy] == csp)
                let id = try #require(response.headers[HTTPFields.Element.Name("X-Request-ID")!])
                #expect(
                    id.count == 21 && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_".contains($0)) })
            }
            #expect(
                image.headers[HTTPFields.Element.Name("X-Request-ID")!]
                    != error.headers[HTTPFields.Element.Name("X-Request-ID")!])
            let traced = try await harness.get(
                "/health", headers: [HTTPFields.Element.Name("X-Request-ID")!: "trace-42_A"])
            #expect(traced.headers[HTTPFields.Element.Name("X-Request-ID")!] == "trace-42_A")
            let hostile = try await harness.get(
                "/health", headers: [HTTPFields.Element.Name("X-Request-ID")!: "a b\"<x>"])
            #expect(
                hostile.headers[HTTPFields.Element.Name("X-Request-ID")!] != "a b\"<x>", "only [A-Za-z0-9_-] is echoed")
        }
    }

    @Test func contentDispositionFollowsFilenameAndAttachment() async throws {
        try await ServerHarness.run { harness in
            let inline = try await harness.get(harness.url("w:10", "/geometry.png", ext: "webp"))
            #expect(inline.headers[.contentDisposition] == "inline; filename=\"geometry.webp\"")
            let named = try await harness.get(harness.url("fn:cat/att:1", "/geometry.png"))
            #expect(named.headers[.contentDisposition] == "attachment; filename=\"cat.png\"")
            let encoded = try await harness.get(harness.url("fn:bXkgImNhdCI:1", "/geometry.png"))
            #expect(encoded.headers[.contentDisposition] == "inline; filename=\"my %22cat%22.png\"")
            // As imgproxy (filepath.Split and Ext of the whole source URL): the query is part of the last segment.
            let query = try await harness.get(harness.url("w:10", "/geometry.png?v=1.2"))
            #expect(query.headers[.contentDisposition] == "inline; filename=\"geometry.png?v=1.png\"")
            let path = try await harness.get(harness.url("w:10", "/geometry.png?u=/a/b.jpg"))
            #expect(path.headers[.contentDisposition] == "inline; filename=\"b.png\"")
        }
    }

    @Test func cachingHeadersAndConditionalRequests() async throws {
        try await ServerHarness.run(configure: { $0.ttl = 600 }) { harness in
            let url = harness.url("w:10", "/geometry.png")
            let first = try await harness.get(url)
            #expect(first.headers[.cacheControl] == "max-age=600, public")
            let etag = try #require(first.headers[.eTag])
            let lastModified = try #require(first.headers[.lastModified])
            let fetches = harness.origin.requestCount("/geometry.png")
            let revalidated = try await harness.get(url, headers: [.ifNoneMatch: etag])
            #expect(revalidated.status == .notModified)
            #expect(revalidated.body.readableBytes == 0)
            #expect(revalidated.headers[.eTag] == etag)
            let weak = try await harness.get(url, headers: [.ifNoneMatch: "W/" + etag])
            #expect(weak.status == .notModified)
            let other = try await harness.get(url, headers: [.ifNoneMatch: "\"nope\""])
            #expect(other.status == .ok)
            #expect(harness.origin.requestCount("/geometry.png") == fetches, "304s and the repeat did no fetch")
            _ = lastModified
            let soon = Int(Date().timeIntervalSince1970) + 100
            let expiring = try await harness.get(harness.url("w:10/exp:\(soon)", "/geometry.png"))
            let age =
                Int(expiring.headers[.cacheControl]?.split(separator: "=")[1].split(separator: ",")[0] ?? "") ?? -1
            #expect((1...100).contains(age))
            let never = try await harness.get(harness.url("w:10/exp:-9223372036854775808", "/geometry.png"))
            #expect(never.headers[.cacheControl] == "max-age=600, public")
        }
    }
}
