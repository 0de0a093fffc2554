import Foundation
import Hummingbird
import Testing
import WebImage
import WebImageTesting

@testable import WebImageServer

/// imgproxy's `IMGPROXY_CACHE_CONTROL_PASSTHROUGH`: the origin's `Cache-Control` (else its `Expires`, as a `max-age`)
/// answers the image when the `expires` option gives no `max-age`, from every tier, as imgproxy's response writer
/// picks it.
@Suite("Server: Cache-Control passthrough")
struct CacheControlPassthroughTests {
    static let ttl = ImageServerConfiguration().ttl
    static let cacheControl = "public, max-age=600, s-maxage=60"

    /// The origin's images: one with `Cache-Control`, one with a future `Expires`, one with a past one, one with
    /// neither.
    static func register(on origin: TestImageServer) throws {
        let png = try ImageCoders.default.encode(Image(pixels: TestImages.geometry), as: .png, options: .default)
        let future = HTTPDate.string(Date().addingTimeInterval(3600))
        origin.register(png, at: "/cc.png", headers: [("Cache-Control", cacheControl)])
        origin.register(png, at: "/expires.png", headers: [("Expires", future)])
        origin.register(png, at: "/expired.png", headers: [("Expires", "Wed, 21 Oct 2015 07:28:00 GMT")])
        origin.register(png, at: "/plain.png")
    }

    @Test func theOriginsHeadersAnswerFromEveryTier() async throws {
        for memory in [64 << 20, 0] {
            try await ServerHarness.run(configure: {
                $0.http.passesCacheControl = true
                $0.resultMemoryCacheSize = memory
            }) { harness in
                try Self.register(on: harness.origin)
                let url = harness.url("w:50", "/cc.png")
                // The miss, then the memory (or, without one, the disk) tier, twice (the repeated path).
                for _ in 0..<3 {
                    let answer = try await harness.get(url)
                    #expect(answer.status == .ok && answer.headers[.cacheControl] == Self.cacheControl)
                }
                let etag = try #require(try await harness.get(url).headers[.eTag])
                let notModified = try await harness.get(url, headers: [.ifNoneMatch: etag])
                #expect(notModified.status == .notModified && notModified.headers[.cacheControl] == Self.cacheControl)

                let expires = try await harness.get(harness.url("w:50", "/expires.png")).headers[.cacheControl]
                let age = try #require(expires.flatMap { Int($0.dropFirst(8).prefix { $0.isNumber }) })
                #expect(expires?.hasPrefix("max-age=") == true && (1...3600).contains(age), "\(expires ?? "")")
                for path in ["/expired.png", "/plain.png"] {
                    let answer = try await harness.get(harness.url("w:50", path))
                    #expect(answer.headers[.cacheControl] == "max-age=\(Self.ttl), public", "\(path)")
                }
            }
        }
    }

    /// The `expires` option's `max-age` wins over the origin's, as imgproxy's writer sets it first.
    @Test func theExpiresOptionWins() async throws {
        try await ServerHarness.run(configure: { $0.http.passesCacheControl = true }) { harness in
            try Self.register(on: harness.origin)
            let expires = Int(Date().timeIntervalSince1970) + 3600
            let answer = try await harness.get(harness.url("exp:\(expires)/w:40", "/cc.png"))
            let value = try #require(answer.headers[.cacheControl])
            #expect(value.hasPrefix("max-age=") && value.hasSuffix(", public") && value != Self.cacheControl)
        }
    }

    /// Without the setting the TTL answers, whatever the origin sent.
    @Test func offTheTTLAnswers() async throws {
        try await ServerHarness.run { harness in
            try Self.register(on: harness.origin)
            for path in ["/cc.png", "/expires.png"] {
                let answer = try await harness.get(harness.url("w:50", path))
                #expect(answer.headers[.cacheControl] == "max-age=\(Self.ttl), public")
            }
        }
    }

    /// A result stored before results kept the origin's freshness headers is a miss while they are passed on (made
    /// again once), and a hit otherwise; one stored now keeps them on disk.
    @Test func aResultStoredWithoutThemIsAMissOnce() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wis-fresh-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let disk = DiskCache(directory: directory)
        let png = try ImageCoders.default.encode(Image(pixels: TestImages.geometry), as: .png, options: .default)
        let key = ResultKey(options: ProcessingOptions(), source: "http://a.example/b.png", format: FormatRequest(.png))
        try await disk.store(png, forKey: key.hex, attributes: CacheEntryAttributes(format: .png, etag: ""))
        #expect(await ResultStore(disk: disk, memoryBytes: 0).local(key) != nil)
        let passing = ResultStore(disk: disk, memoryBytes: 0, keepsFreshness: true)
        #expect(await passing.local(key) == nil, "stored before the freshness headers were kept")

        let origin = ImageValidators(etag: "\"m\"", cacheControl: "max-age=5", expires: "Wed, 21 Oct 2015 07:28:00 GMT")
        _ = try await passing.result(for: key) { () async throws(ImageServerError) in
            ProcessedImage(data: png, format: .png, size: PixelSize(width: 200, height: 100), source: origin)
        }
        let reopened = ResultStore(disk: DiskCache(directory: directory), memoryBytes: 0, keepsFreshness: true)
        let kept = try #require(await reopened.local(key)).0
        #expect(kept.origin == origin)
    }
}
