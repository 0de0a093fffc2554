import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebImage
import WebImageServer

/// The shortcut for repeated paths (`AnsweredPaths`, issue 29): a repeated request answers exactly as the first,
/// and everything the first checked is checked again or sends it back to the full road.
@Suite("Server: repeated requests")
struct RepeatedRequestTests {
    static let requestID = HTTPFields.Element.Name("X-Request-ID")!

    /// `response`'s headers without the request ID (new on every response) and the clock's (`Date`, `Expires`: a
    /// second may pass between two answers on a loaded machine).
    static func headers(_ response: TestResponse) -> [String: String] {
        var fields: [String: String] = [:]
        for field in response.headers where ![requestID, .date, .expires].contains(field.name) {
            fields[field.name.canonicalName] = field.value
        }
        return fields
    }

    @Test(arguments: [64 * 1024 * 1024, 0])
    func aRepeatedRequestAnswersAsTheFirst(memoryBytes: Int) async throws {
        try await ServerHarness.run(configure: { $0.resultMemoryCacheSize = memoryBytes }) { harness in
            let url = harness.url("rs:fit:50:50/fn:named", "/geometry.png", ext: "webp")
            let first = try await harness.get(url)
            #expect(first.status == .ok)
            for _ in 0..<3 {
                let again = try await harness.get(url)
                #expect(again.status == .ok && again.body == first.body)
                #expect(Self.headers(again) == Self.headers(first))
            }
            let etag = try #require(first.headers[.eTag])
            let notModified = try await harness.get(url, headers: [.ifNoneMatch: "\"other\", " + etag])
            #expect(notModified.status == .notModified && notModified.body.readableBytes == 0)
            #expect(notModified.headers[.eTag] == etag && notModified.headers[.contentType] == nil)
            #expect(try await harness.get(url, headers: [.ifNoneMatch: "\"other\""]).status == .ok)
            let metrics = MetricsText(String(buffer: try await harness.get("/metrics").body))
            let tier = memoryBytes > 0 ? "memory" : "disk"
            #expect(metrics.value("webimage_requests_total", ["cache": "miss", "status": "200"]) == 1)
            #expect(metrics.value("webimage_requests_total", ["cache": tier, "status": "200"]) == 4)
            #expect(metrics.value("webimage_requests_total", ["cache": "not_modified", "status": "304"]) == 1)
            #expect(harness.origin.stats.total == 1)
        }
    }

    @Test func aResultGoneFromEveryTierIsMadeAgain() async throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("repeat-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        try await ServerHarness.run(configure: {
            $0.resultMemoryCacheSize = 0
            $0.cacheDirectory = cache
        }) { harness in
            let url = harness.url("w:40", "/geometry.png", ext: "png")
            let first = try await harness.get(url)
            try FileManager.default.removeItem(at: cache.appendingPathComponent("results"))
            let again = try await harness.get(url)
            #expect(again.status == .ok && again.body == first.body)
            let metrics = MetricsText(String(buffer: try await harness.get("/metrics").body))
            #expect(metrics.value("webimage_requests_total", ["cache": "miss", "status": "200"]) == 2)
        }
    }

    @Test func anExpiredPathIsRefusedEvenAfterItWasAnswered() async throws {
        try await ServerHarness.run { harness in
            // Far enough ahead for the first answer on a loaded machine; then waited out.
            let expires = Int(Date().timeIntervalSince1970) + 6
            let url = harness.url("exp:\(expires)/w:30", "/geometry.png", ext: "png")
            let first = try await harness.get(url)
            #expect(first.status == .ok)
            let maxAge = try #require(first.headers[.cacheControl])
            #expect(maxAge.hasPrefix("max-age=") && maxAge != "max-age=\(ImageServerConfiguration().ttl), public")
            while Date().timeIntervalSince1970 < Double(expires) + 1.2 { try await Task.sleep(for: .milliseconds(200)) }
            let late = try await harness.get(url)
            #expect(late.status.code == 404, "\(late.status)")
        }
    }

    @Test func theSecretIsCheckedOnEveryRequest() async throws {
        try await ServerHarness.run(configure: { $0.secret = "s3cret" }) { harness async throws in
            let url = harness.url("w:20", "/geometry.png", ext: "png")
            let good: HTTPFields = [.authorization: "Bearer s3cret"]
            #expect(try await harness.get(url, headers: good).status == .ok)
            #expect(try await harness.get(url, headers: good).status == .ok)
            #expect(try await harness.get(url).status == .forbidden)
            #expect(try await harness.get(url, headers: [.authorization: "Bearer s3crex"]).status == .forbidden)
        }
    }

    @Test func aPathIsRememberedOnlyOnceItsSignatureVerified() async throws {
        let signer = URLSigner(key: Array("key".utf8), salt: Array("salt".utf8))
        try await ServerHarness.run(configure: { $0.signer = signer }) { harness async throws in
            let rest = String(harness.url("w:25", "/geometry.png", ext: "png").dropFirst("/insecure".count))
            let signed = "/" + signer.signature(for: rest) + rest
            let forged = "/" + String(signer.signature(for: rest).reversed()) + rest
            #expect(try await harness.get(forged).status == .forbidden)
            #expect(try await harness.get(signed).status == .ok)
            #expect(try await harness.get(signed).status == .ok)
            #expect(try await harness.get(forged).status == .forbidden)
            #expect(try await harness.get("/insecure" + rest).status == .forbidden)
        }
    }

    @Test func eachAcceptedFormatHasItsOwnAnswer() async throws {
        try await ServerHarness.run(configure: { $0.autoWebP = true }) { harness in
            let url = harness.url("w:30", "/geometry.png")
            for _ in 0..<2 {
                let webp = try await harness.get(url, headers: [.accept: "image/webp,*/*"])
                let plain = try await harness.get(url, headers: [.accept: "*/*"])
                #expect(webp.headers[.contentType] == "image/webp" && plain.headers[.contentType] == "image/png")
                #expect(webp.headers[.vary] == "Accept" && plain.headers[.vary] == "Accept")
                #expect(webp.headers[.eTag] == plain.headers[.eTag], "the origin's, as imgproxy's")
            }
        }
    }
}
