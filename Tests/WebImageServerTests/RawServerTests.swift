import Foundation
import HummingbirdTesting
import Testing
import WebImage
import WebImageServer
import WebImageTesting

/// `raw` through a live server and a local origin, as imgproxy streams a source: untouched, under the source limits
/// and the address rules, with the origin's headers and status passed both ways.
@Suite("Server: raw sources end to end")
struct RawServerTests {
    @Test func rawStreamsTheSourceUnderItsLimits() async throws {
        try await ServerHarness.run(configure: { $0.limits.maxSourceFileSize = 2_000 }) { harness in
            let raw = try await harness.get(harness.url("raw:1", "/geometry.png", ext: "webp"))
            #expect(raw.status.code == 200)
            #expect(raw.headers[.contentType] == "image/png", "the extension is ignored")
            #expect(raw.headers[.contentDisposition] == "inline; filename=\"geometry.png\"")
            #expect(raw.headers[.lastModified] == "Wed, 21 Oct 2015 07:28:00 GMT")
            #expect(raw.headers[.eTag]?.hasSuffix("\"") == true, "the origin's ETag, as imgproxy passes it")
            #expect(try ServerHarness.image(raw).size == PixelSize(width: 200, height: 100))
            #expect(try await harness.get(harness.url("raw:1", "/huge/10000")).status.code == 422)
            #expect(try await harness.get(harness.url("raw:1", "/status/404")).status.code == 404)
            let attachment = try await harness.get(harness.url("raw:1/att:1/fn:pic", "/geometry.png"))
            #expect(attachment.headers[.contentDisposition] == "attachment; filename=\"pic.png\"")
        }
    }

    /// imgproxy's stream: the client's `If-None-Match`, `If-Modified-Since`, `Accept-Encoding` and `Range` go to the
    /// origin, nothing else; its status and its `Content-Type`, `Content-Encoding`, `Content-Range`, `Accept-Ranges`,
    /// `Last-Modified` and `ETag` come back.
    @Test func rawPassesTheOriginsHeadersAndStatusBothWays() async throws {
        let png = try ImageCoders.default.encode(Image(pixels: TestImages.geometry), as: .png, options: .default)
        try await ServerHarness.run(configureWithOrigin: { configuration, origin in
            configuration.ttl = 3600
            origin.register(png, at: "/photo.png", etag: "\"v1\"")
        }) { harness in
            let url = harness.url("raw:1", "/photo.png")
            let partial = try await harness.get(
                url,
                headers: [
                    .range: "bytes=0-99", .ifNoneMatch: "\"v0\"", .acceptEncoding: "gzip", .cookie: "session=1",
                    .authorization: "Bearer x", .userAgent: "client/1",
                ])
            #expect(partial.status.code == 206)
            #expect(ParityServerTests.body(partial) == png.prefix(100))
            #expect(partial.headers[.contentRange] == "bytes 0-99/\(png.count)")
            #expect(partial.headers[.contentLength] == "100")
            #expect(partial.headers[.acceptRanges] == "bytes")
            #expect(partial.headers[.eTag] == "\"v1\"")
            #expect(partial.headers[.contentType] == "image/png")
            #expect(partial.headers[.lastModified] == "Wed, 21 Oct 2015 07:28:00 GMT")
            #expect(partial.headers[.cacheControl] == "max-age=3600, public")
            #expect(partial.headers[.contentDisposition] == "inline; filename=\"photo.png\"")
            let stats = harness.origin.stats
            #expect(stats.values(of: "Range", for: "/photo.png") == ["bytes=0-99"])
            #expect(stats.values(of: "If-None-Match", for: "/photo.png") == ["\"v0\""])
            #expect(stats.values(of: "Accept-Encoding", for: "/photo.png") == ["gzip"])
            for name in ["Cookie", "Authorization"] { #expect(stats.values(of: name, for: "/photo.png").isEmpty) }
            #expect(stats.values(of: "User-Agent", for: "/photo.png").allSatisfy { $0 != "client/1" })

            let notModified = try await harness.get(url, headers: [.ifNoneMatch: "\"v1\""])
            #expect(notModified.status.code == 304)
            #expect(notModified.body.readableBytes == 0)
            #expect(notModified.headers[.eTag] == "\"v1\"")
            #expect(notModified.headers[.cacheControl] == "max-age=3600, public")
            let since = try await harness.get(url, headers: [.ifModifiedSince: "Wed, 21 Oct 2015 07:28:00 GMT"])
            #expect(since.status.code == 304)
            #expect(harness.origin.requestCount("/photo.png") == 3, "each raw request goes to the origin")

            let unsatisfiable = try await harness.get(url, headers: [.range: "bytes=999999-"])
            #expect(unsatisfiable.status.code == 416)
            #expect(unsatisfiable.headers[.contentRange] == "bytes */\(png.count)")
            #expect(unsatisfiable.headers[.cacheControl] == nil, "no Cache-Control on an error, as imgproxy")
            let missing = try await harness.get(harness.url("raw:1", "/status/404"))
            #expect(missing.status.code == 404 && String(buffer: missing.body) == "status 404\n")
            #expect(missing.headers[.cacheControl] == nil && missing.headers[.contentDisposition] == nil)
            let failing = try await harness.get(harness.url("raw:1", "/status/503"))
            #expect(failing.status.code == 503, "the origin's status, as imgproxy streams it")

            let encoded = try await harness.get(harness.url("raw:1", "/photo.png?encoding=gzip"))
            #expect(encoded.headers[.contentEncoding] == "gzip")

            let processed = try await harness.get(harness.url("w:50", "/photo.png"), headers: [.range: "bytes=0-9"])
            #expect(processed.status.code == 200, "a processed image ignores Range")
            #expect(harness.origin.stats.values(of: "Range", for: "/photo.png").count == 2)
        }
    }

    /// `raw` goes through the address rules as any source: a loopback origin is refused without being reached.
    @Test func rawStaysUnderTheAddressRules() async throws {
        try await ServerHarness.run(configure: { $0.addressPolicy = SourceAddressPolicy() }) { harness in
            let response = try await harness.get(harness.url("raw:1", "/geometry.png"), headers: [.range: "bytes=0-9"])
            #expect(response.status.code == 404)
            #expect(harness.origin.requestCount("/geometry.png") == 0)
        }
    }
}
