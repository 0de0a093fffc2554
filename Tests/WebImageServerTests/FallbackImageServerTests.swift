import Foundation
import HummingbirdTesting
import Testing
import WebImage
import WebImageServer
import WebImageTesting

/// imgproxy's fallback image through a live server: a source that cannot be loaded or decoded answers the fallback
/// image processed with the request's options, with the fallback status and TTL, and is not cached.
@Suite("Server: fallback image end to end")
struct FallbackImageServerTests {
    static let green = RGBA(red: 0, green: 255, blue: 0)
    /// A 40×40 green PNG.
    static let fallback = try! ImageCoders.default.encode(
        Image(pixels: PixelBuffer(width: 40, height: 40, filledWith: green)), as: .png, options: .default)

    @Test func aMissingSourceOrOneThatIsNoImageAnswersTheFallbackProcessed() async throws {
        try await ServerHarness.run(configure: {
            $0.fallbackImage = FallbackImageConfiguration(source: .data(Self.fallback), ttl: 60)
        }) { harness in
            for path in ["/status/404", "/html", "/status/500"] {
                let response = try await harness.get(harness.url("rs:fill:20:10", path, ext: "png"))
                #expect(response.status.code == 200, "\(path)")
                let image = try ServerHarness.image(response)
                #expect(image.size == PixelSize(width: 20, height: 10) && image.pixels[5, 5] == Self.green)
                #expect(response.headers[.cacheControl] == "max-age=60, public")
                #expect(response.headers[.eTag] == nil)
            }
            // A PNG that does not decode is not a download failure: its error, as imgproxy answers it.
            var broken = try ImageCoders.default.encode(Image(pixels: TestImages.geometry), as: .png, options: .default)
            broken.replaceSubrange(40..<broken.count, with: Data(repeating: 0x5A, count: 64))
            harness.origin.register(broken, at: "/broken.png")
            let corrupt = try await harness.get(harness.url("rs:fill:20:10", "/broken.png", ext: "png"))
            #expect(corrupt.status.code == 422 && corrupt.headers[.contentType] != "image/png")
            let real = try await harness.get(harness.url("rs:fill:20:10", "/geometry.png", ext: "png"))
            #expect(real.headers[.cacheControl] == "max-age=31536000, public" && real.headers[.eTag] != nil)
            #expect(try ServerHarness.image(real).pixels[5, 5] == RGBA(red: 255, green: 0, blue: 0))
        }
    }

    /// `Cache-Control` as imgproxy's response writer sets it: without a fallback TTL, none on an error status and the
    /// TTL on another; with one, that TTL even past the server's TTL, shortened by `expires`.
    @Test(
        arguments: [
            (0, 0, "", nil), (200, 0, "", "max-age=31536000, public"), (0, 60, "", "max-age=60, public"),
            (200, 100_000_000, "", "max-age=100000000, public"), (0, 60, "exp:EXPIRES/", "max-age=30, public"),
        ] as [(Int, Int, String, String?)])
    func theCacheControlOfAFallback(status: Int, ttl: Int, options: String, expected: String?) async throws {
        try await ServerHarness.run(configure: {
            $0.fallbackImage = FallbackImageConfiguration(source: .data(Self.fallback), statusCode: status, ttl: ttl)
        }) { harness in
            let expires = String(Int(Date().timeIntervalSince1970) + 30)
            let path = options.replacingOccurrences(of: "EXPIRES", with: expires) + "w:4"
            let response = try await harness.get(harness.url(path, "/status/404"))
            #expect(response.status.code == (status == 0 ? 404 : status))
            let control = response.headers[.cacheControl]
            if expected == "max-age=30, public" {
                let seconds = control.flatMap { Int($0.dropFirst(8).prefix { $0.isNumber }) } ?? -1
                #expect((1...30).contains(seconds), "the time left to expires: \(control ?? "none")")
            } else {
                #expect(control == expected)
            }
        }
    }

    @Test func theFallbackIsNotCachedAsTheResult() async throws {
        try await ServerHarness.run(configureWithOrigin: { configuration, origin in
            configuration.fallbackImage = FallbackImageConfiguration(source: .data(Self.fallback), statusCode: 0)
        }) { harness in
            let url = harness.url("w:20", "/later.png")
            let missing = try await harness.get(url)
            #expect(missing.status.code == 404, "status 0 answers the failure's own")
            #expect(try ServerHarness.image(missing).pixels[0, 0] == Self.green)
            let png = try ImageCoders.default.encode(Image(pixels: TestImages.geometry), as: .png, options: .default)
            harness.origin.register(png, at: "/later.png")
            let found = try await harness.get(url)
            #expect(found.status.code == 200)
            #expect(try ServerHarness.image(found).pixels[0, 0] == RGBA(red: 255, green: 0, blue: 0))
        }
    }

    @Test func aFallbackURLIsFetchedAsASourceAndRefusedSourcesStillAreRefused() async throws {
        try await ServerHarness.run(configureWithOrigin: { configuration, origin in
            origin.register(Self.fallback, at: "/fallback.png")
            configuration.fallbackImage = FallbackImageConfiguration(
                source: .url(origin.url("/fallback.png")), statusCode: 203)
            configuration.allowedSources = [origin.baseURL.absoluteString + "/"]
        }) { harness in
            #expect(harness.origin.requestCount("/fallback.png") == 1, "fetched at start, as imgproxy fetches it")
            let response = try await harness.get(harness.url("w:10", "/status/404"))
            #expect(response.status.code == 203)
            #expect(try ServerHarness.image(response).size == PixelSize(width: 10, height: 10))
            let refused = try await harness.get("/insecure/w:10/plain/http://elsewhere.example/a.png")
            #expect(refused.status.code == 404, "a source the rules refuse is not a load failure")
            #expect(harness.origin.requestCount("/fallback.png") == 1)
        }
    }

    /// With `--cache-control-passthrough`, a fallback fetched from a URL answers with that URL's own
    /// `Cache-Control`, as imgproxy passes the fallback's headers on (a fallback TTL still wins); a fallback of bytes
    /// has none, so the TTL answers.
    @Test(arguments: [(0, "public, max-age=777"), (45, "max-age=45, public")])
    func aFallbackURLsOwnCacheControlIsPassedOn(fallbackTTL: Int, expected: String) async throws {
        try await ServerHarness.run(configureWithOrigin: { configuration, origin in
            origin.register(Self.fallback, at: "/fallback.png", headers: [("Cache-Control", "public, max-age=777")])
            configuration.fallbackImage = FallbackImageConfiguration(
                source: .url(origin.url("/fallback.png")), ttl: fallbackTTL)
            configuration.http.passesCacheControl = true
        }) { harness in
            for _ in 0..<2 {
                let response = try await harness.get(harness.url("w:10", "/status/404"))
                #expect(response.status.code == 200 && response.headers[.cacheControl] == expected)
            }
        }
        try await ServerHarness.run(configure: {
            $0.fallbackImage = FallbackImageConfiguration(source: .data(Self.fallback))
            $0.http.passesCacheControl = true
        }) { harness in
            let response = try await harness.get(harness.url("w:10", "/status/404"))
            #expect(response.headers[.cacheControl] == "max-age=\(ImageServerConfiguration().ttl), public")
        }
    }

    @Test func aFallbackURLThatCannotBeFetchedStopsTheStart() async throws {
        await #expect(throws: ImageServerConfigurationError.self) {
            try await ServerHarness.run(configureWithOrigin: { configuration, origin in
                configuration.fallbackImage = FallbackImageConfiguration(source: .url(origin.url("/status/404")))
            }) { _ in Issue.record("a fallback that cannot be fetched stops the start") }
        }
        await #expect(throws: ImageServerConfigurationError.self) {
            try await ServerHarness.run(configureWithOrigin: { configuration, origin in
                configuration.fallbackImage = FallbackImageConfiguration(source: .url(origin.url("/html")))
            }) { _ in Issue.record("a fallback that is not an image stops the start") }
        }
    }

    @Test func aFallbackThatIsNotAnImageStopsTheServerFromStarting() {
        var configuration = ImageServerConfiguration()
        configuration.fallbackImage = FallbackImageConfiguration(source: .data(Data("nope".utf8)))
        #expect(throws: ImageServerConfigurationError.self) { try ImageServer(configuration: configuration) }
        configuration.fallbackImage = FallbackImageConfiguration(source: .data(Self.fallback), statusCode: 700)
        #expect(throws: ImageServerConfigurationError.self) { try ImageServer(configuration: configuration) }
    }
}
