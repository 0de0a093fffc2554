import Foundation
import HummingbirdTesting
import NIOCore
import Testing
import WebImageServer

@Suite("Server: status codes and error bodies")
struct ServerStatusTests {
    /// Checks an error response: status, short text body, no Cache-Control, nothing from the origin.
    static func expectError(_ response: TestResponse, _ status: Int, mentions: String? = nil) {
        #expect(Int(response.status.code) == status, "\(String(buffer: response.body))")
        #expect(response.headers[.contentType]?.hasPrefix("text/plain") == true)
        #expect(response.headers[.cacheControl] == nil)
        let body = String(buffer: response.body)
        #expect(body.count < 200 && !body.contains("127.0.0.1") && !body.contains("/tmp") && !body.contains("status "))
        if let mentions { #expect(body.contains(mentions), "\(body)") }
    }

    @Test func badOptionsArgumentsPresetsAndFormatsAre404NamingThem() async throws {
        try await ServerHarness.run { harness in
            Self.expectError(try await harness.get(harness.url("zz:jpg", "/geometry.png")), 404, mentions: "zz")
            Self.expectError(try await harness.get(harness.url("w:abc", "/geometry.png")), 404, mentions: "width")
            Self.expectError(try await harness.get(harness.url("dpr:nan", "/geometry.png")), 404, mentions: "dpr")
            Self.expectError(try await harness.get(harness.url("pr:nope", "/geometry.png")), 404, mentions: "nope")
            Self.expectError(
                try await harness.get(harness.url("w:1", "/geometry.png", ext: "tga")), 404, mentions: "tga")
            Self.expectError(try await harness.get(harness.url("exp:1", "/geometry.png")), 404, mentions: "expired")
            Self.expectError(try await harness.get("/insecure"), 404)
            #expect(harness.origin.stats.total == 0, "nothing fetched for a bad URL")
        }
    }

    @Test func badSignatureIs403AndDoesNoWork() async throws {
        let signer = try #require(URLSigner(hexKey: "0011", hexSalt: "2233"))
        try await ServerHarness.run(configure: { $0.signer = signer }) { harness in
            let path = "/w:10/plain/" + harness.source("/geometry.png")
            Self.expectError(try await harness.get("/insecure" + path), 403)
            Self.expectError(try await harness.get("/" + signer.signature(for: path) + "x" + path), 403)
            #expect(harness.origin.stats.total == 0)
            let signed = try await harness.get("/" + signer.signature(for: path) + path)
            #expect(signed.status == .ok)
        }
    }

    @Test func forbiddenSourcesAre404() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("wis-root-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try await ServerHarness.run(configure: { $0.allowedSources = ["http://allowed.invalid/"] }) { harness in
            Self.expectError(try await harness.get(harness.url("w:1", "/geometry.png")), 404, mentions: "not allowed")
            Self.expectError(try await harness.get("/insecure/plain/ftp:%2F%2Fx%2Fa.png"), 404)
            Self.expectError(try await harness.get("/insecure/plain/local:%2F%2F%2Fa.png"), 404)
            #expect(harness.origin.stats.total == 0)
        }
    }

    @Test func originFailuresMapAsImgproxyDoes() async throws {
        try await ServerHarness.run { harness in
            Self.expectError(try await harness.get(harness.url("", "/status/404")), 404)
            Self.expectError(try await harness.get(harness.url("", "/status/410")), 410)
            Self.expectError(try await harness.get(harness.url("", "/status/500")), 502)
            Self.expectError(try await harness.get(harness.url("", "/status/503")), 502)
            // imgproxy takes an image from 200 and 206 only: another 2xx (with a body or not) is 404.
            Self.expectError(try await harness.get(harness.url("", "/status/202")), 404)
            Self.expectError(try await harness.get(harness.url("", "/status/204")), 404)
            Self.expectError(try await harness.get(harness.url("", "/html")), 422)
            Self.expectError(try await harness.get(harness.url("", "/fixtures/corpus/images/gen_random.bin")), 422)
            Self.expectError(try await harness.get(harness.url("", "/fixtures/corpus/images/gen_truncated.png")), 422)
            #expect(try await harness.get("/health").status == .ok)
        }
    }

    @Test func downloadTimeoutIs504() async throws {
        try await ServerHarness.run(configure: { $0.limits.downloadTimeout = .milliseconds(500) }) { harness in
            Self.expectError(try await harness.get(harness.url("", "/geometry.png?delay=5000")), 504)
            #expect(try await harness.get("/health").status == .ok)
        }
    }

    @Test func unreachableSourceIs404() async throws {
        try await ServerHarness.run(configure: { $0.limits.downloadTimeout = .seconds(3) }) { harness in
            let response = try await harness.get("/insecure/plain/http:%2F%2F127.0.0.1:1%2Fa.png")
            Self.expectError(response, 404, mentions: "unavailable")
        }
    }

    @Test func limitsAre422BeforeTheWork() async throws {
        try await ServerHarness.run(configure: {
            $0.limits.maxSourceResolution = 10_000
            $0.limits.maxSourceFileSize = 2_000_000
        }) { harness in
            Self.expectError(try await harness.get(harness.url("w:10", "/geometry.png")), 422, mentions: "resolution")
            Self.expectError(
                try await harness.get(harness.url("", "/fixtures/corpus/images/bomb_50000x50000.png")), 422)
            Self.expectError(try await harness.get(harness.url("", "/huge/10000000")), 422)
            #expect(try await harness.get(harness.url("w:10", "/alpha.png")).status == .ok)
        }
    }

    @Test func resolutionCountsEveryKeptFrameAndIsCheckedBeforeDecoding() async throws {
        try await ServerHarness.run(configure: { $0.limits.maxSourceResolution = 2_000 }) { harness in
            // anim.webp: 5 frames of 40x20 = 4,000 pixels kept in WebP; its first frame alone (800) in PNG.
            Self.expectError(try await harness.get(harness.url("", "/anim.webp")), 422, mentions: "resolution")
            #expect(try await harness.get(harness.url("", "/anim.webp", ext: "png")).status == .ok)
            let metrics = MetricsText(String(buffer: try await harness.get("/metrics").body))
            #expect(
                metrics.value("webimage_stage_duration_seconds_count", ["stage": "decode"]) == 1,
                "only the PNG result was decoded: \(metrics.text)")
        }
    }

    @Test func wholeRequestDeadlineIs503() async throws {
        try await ServerHarness.run(configure: {
            $0.limits.requestTimeout = .milliseconds(200)
            $0.limits.downloadTimeout = .seconds(10)
        }) { harness in
            Self.expectError(try await harness.get(harness.url("", "/geometry.png?delay=2000")), 503)
            #expect(try await harness.get("/health").status == .ok)
        }
    }

    @Test func errorsAreJSONWhenAcceptAsks() async throws {
        try await ServerHarness.run { harness in
            let response = try await harness.get(
                harness.url("w:x", "/geometry.png"), headers: [.accept: "application/json"])
            #expect(response.status == .notFound)
            #expect(response.headers[.contentType] == "application/json")
            let object =
                try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: String]
            #expect(object?["error"]?.contains("width") == true)
        }
    }

    @Test func ifModifiedSinceAnswers304FromTheResultCache() async throws {
        try await ServerHarness.run { harness in
            let url = harness.url("w:12", "/geometry.png")
            let first = try await harness.get(url)
            let lastModified = try #require(first.headers[.lastModified])
            let response = try await harness.get(url, headers: [.ifModifiedSince: lastModified])
            #expect(response.status == .notModified)
            // Last-Modified is the origin's (Wed, 21 Oct 2015 07:28:00 GMT): a day before it is older.
            let old = try await harness.get(url, headers: [.ifModifiedSince: "Tue, 20 Oct 2015 07:28:00 GMT"])
            #expect(old.status == .ok)
        }
    }
}
