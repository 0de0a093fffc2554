import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebImage
import WebImageServer
import WebImageTesting

/// `ETag` and `Last-Modified` as imgproxy 4 makes them: the origin's, passed on both ways, with its busters; a result
/// in the server's tiers answers a conditional request from the validators kept with it.
@Suite("Server: ETag and Last-Modified as imgproxy's")
struct ValidatorServerTests {
    static let originDate = "Wed, 21 Oct 2015 07:28:00 GMT"

    static func png(_ red: UInt8) throws -> Data {
        let pixels = PixelBuffer(width: 40, height: 20, filledWith: RGBA(red: red, green: 0, blue: 0))
        return try ImageCoders.default.encode(Image(pixels: pixels), as: .png, options: .default)
    }

    /// Without result or original caches every request reaches the origin: the ETag and `Last-Modified` follow its
    /// file.
    @Test func theETagIsTheOriginsAndChangesWithIt() async throws {
        try await ServerHarness.run(configure: { $0.cachesResults = false }) { harness in
            harness.origin.register(try Self.png(10), at: "/v.png", etag: "\"v1\"")
            let url = harness.url("w:10", "/v.png")
            let first = try await harness.get(url)
            #expect(first.status == .ok && first.headers[.eTag] == "\"v1\"")
            #expect(first.headers[.lastModified] == Self.originDate)
            harness.origin.register(
                try Self.png(200), at: "/v.png", etag: "\"v2\"", lastModified: "Thu, 22 Oct 2015 07:28:00 GMT")
            let second = try await harness.get(url)
            #expect(second.headers[.eTag] == "\"v2\"" && second.body != first.body)
            #expect(second.headers[.lastModified] == "Thu, 22 Oct 2015 07:28:00 GMT")
            harness.origin.register(try Self.png(30), at: "/none.png", etag: "", lastModified: nil)
            let bare = try await harness.get(harness.url("w:10", "/none.png"))
            #expect(
                bare.status == .ok && bare.headers[.eTag] == nil && bare.headers[.lastModified] == nil,
                "no validator from the origin, none from the server: never the time the result was made")
        }
    }

    /// A result in memory or on disk answers `If-None-Match` and `If-Modified-Since` with the origin stopped.
    @Test(arguments: [64 * 1024 * 1024, 0])
    func aCachedResultAnswers304WithTheOriginStopped(memoryBytes: Int) async throws {
        try await ServerHarness.run(configure: {
            $0.resultMemoryCacheSize = memoryBytes
            $0.autoWebP = true
        }) { harness in
            harness.origin.register(try Self.png(10), at: "/c.png", etag: "\"c1\"")
            let url = harness.url("w:10", "/c.png")
            let first = try await harness.get(url)
            #expect(first.headers[.eTag] == "\"c1\"")
            let other = harness.url("w:12", "/c.png")
            #expect(try await harness.get(other).status == .ok, "a second path, answered once")
            try await harness.origin.shutdown()
            for path in [url, other] {
                let etag = try await harness.get(path, headers: [.ifNoneMatch: "\"c1\""])
                #expect(etag.status == .notModified && etag.body.readableBytes == 0, "\(path)")
                #expect(etag.headers[.eTag] == "\"c1\"" && etag.headers[.lastModified] == Self.originDate)
                #expect(etag.headers[.vary] == "Accept" && etag.headers[.contentType] == nil)
                let date = try await harness.get(path, headers: [.ifModifiedSince: Self.originDate])
                #expect(date.status == .notModified, "\(path)")
                let changed = try await harness.get(path, headers: [.ifNoneMatch: "\"c0\""])
                #expect(changed.status == .ok && changed.headers[.eTag] == "\"c1\"", "\(path)")
            }
        }
    }

    /// On a miss the client's validators go to the origin: its 304 is the answer, its 200 is processed.
    @Test func aMissAsksTheOriginWithTheClientsValidators() async throws {
        try await ServerHarness.run { harness in
            harness.origin.register(try Self.png(10), at: "/m.png", etag: "\"m1\"")
            let notModified = try await harness.get(harness.url("w:10", "/m.png"), headers: [.ifNoneMatch: "\"m1\""])
            #expect(notModified.status == .notModified && notModified.headers[.eTag] == "\"m1\"")
            #expect(notModified.headers[.lastModified] == Self.originDate)
            #expect(harness.origin.stats.values(of: "If-None-Match", for: "/m.png") == ["\"m1\""])
            let since = try await harness.get(
                harness.url("w:11", "/m.png"), headers: [.ifModifiedSince: Self.originDate])
            #expect(since.status == .notModified)
            #expect(harness.origin.stats.values(of: "If-Modified-Since", for: "/m.png") == [Self.originDate])
            let stale = try await harness.get(harness.url("w:12", "/m.png"), headers: [.ifNoneMatch: "\"m0\""])
            #expect(stale.status == .ok && stale.headers[.eTag] == "\"m1\"")
            #expect(try ServerHarness.image(stale).width == 12)
            let fetches = harness.origin.requestCount("/m.png")
            #expect(fetches == 3, "the 200 was processed from the conditional fetch's bytes, not fetched again")
            let again = try await harness.get(harness.url("w:12", "/m.png"), headers: [.ifNoneMatch: "\"m1\""])
            #expect(again.status == .notModified && harness.origin.requestCount("/m.png") == fetches)
        }
    }

    @Test func bustersChangeTheValuesAndWhatMatches() async throws {
        let buster = Date(timeIntervalSince1970: 1_577_836_800)  // 2020-01-01
        try await ServerHarness.run(configure: {
            $0.http.etagBuster = "b1"
            $0.http.lastModifiedBuster = buster
        }) { harness in
            harness.origin.register(try Self.png(10), at: "/b.png", etag: "\"b\"")
            let busted =
                "\"b1/" + Data("\"b\"".utf8).base64EncodedString().replacingOccurrences(of: "=", with: "") + "\""
            let first = try await harness.get(harness.url("w:10", "/b.png"))
            #expect(first.headers[.eTag] == busted)
            #expect(
                first.headers[.lastModified] == "Wed, 01 Jan 2020 00:00:00 GMT", "the buster, newer than the origin's")
            #expect(
                try await harness.get(harness.url("w:10", "/b.png"), headers: [.ifNoneMatch: busted]).status.code == 304
            )
            #expect(
                try await harness.get(harness.url("w:10", "/b.png"), headers: [.ifNoneMatch: "\"b\""]).status == .ok,
                "an ETag without the buster validates nothing")
            #expect(
                try await harness.get(harness.url("w:10", "/b.png"), headers: [.ifModifiedSince: Self.originDate])
                    .status == .ok, "a date not after the buster validates nothing")
            let miss = try await harness.get(harness.url("w:11", "/b.png"), headers: [.ifNoneMatch: busted])
            #expect(miss.status == .notModified && miss.headers[.eTag] == busted)
            #expect(harness.origin.stats.values(of: "If-None-Match", for: "/b.png") == ["\"b\""], "unwrapped")
            _ = try await harness.get(harness.url("w:12", "/b.png"), headers: [.ifNoneMatch: "\"b\""])
            #expect(harness.origin.stats.values(of: "If-None-Match", for: "/b.png").count == 1, "not sent on")
        }
    }

    @Test func validatorsSwitchedOffAreNeitherSentNorHonoured() async throws {
        try await ServerHarness.run(configure: {
            $0.http.usesETag = false
            $0.http.usesLastModified = false
        }) { harness in
            harness.origin.register(try Self.png(10), at: "/o.png", etag: "\"o1\"")
            let url = harness.url("w:10", "/o.png")
            let first = try await harness.get(url)
            #expect(first.status == .ok && first.headers[.eTag] == nil && first.headers[.lastModified] == nil)
            let cached = try await harness.get(
                url, headers: [.ifNoneMatch: "\"o1\"", .ifModifiedSince: Self.originDate])
            #expect(cached.status == .ok)
            let miss = try await harness.get(harness.url("w:11", "/o.png"), headers: [.ifNoneMatch: "\"o1\""])
            #expect(miss.status == .ok)
            #expect(harness.origin.stats.values(of: "If-None-Match", for: "/o.png").isEmpty)
        }
    }

    /// A `local://` source has the file's validators, as imgproxy's file storage gives them; a conditional miss is
    /// compared with them.
    @Test func aLocalFileHasItsValidators() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("wis-local-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.png(10).write(to: root.appendingPathComponent("f.png"))
        try await ServerHarness.run(configure: { $0.localRoot = root }) { harness in
            let first = try await harness.get("/insecure/w:10/plain/local:///f.png")
            let etag = try #require(first.headers[.eTag])
            #expect(first.status == .ok && first.headers[.lastModified] != nil)
            let miss = try await harness.get("/insecure/w:11/plain/local:///f.png", headers: [.ifNoneMatch: etag])
            #expect(miss.status == .notModified && miss.headers[.eTag] == etag)
            let other = try await harness.get("/insecure/w:12/plain/local:///f.png", headers: [.ifNoneMatch: "\"x\""])
            #expect(other.status == .ok && other.headers[.eTag] == etag)
        }
    }
}
