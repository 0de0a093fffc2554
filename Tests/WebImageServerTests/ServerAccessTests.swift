import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebImageServer

/// imgproxy's access settings end to end: `--secret`, `--allow-origin`, `--max-redirects` and `--allowed-sources`
/// with `*`.
@Suite("Server: secret, CORS, redirects and allowed sources")
struct ServerAccessTests {
    static let authorization = HTTPFields.Element.Name("Authorization")!

    @Test func imageRequestsNeedTheSecretHealthMetricsHeadAndOptionsDoNot() async throws {
        try await ServerHarness.run(configure: { $0.secret = "s3cret" }) { harness in
            let url = harness.url("w:10", "/geometry.png")
            ServerStatusTests.expectError(try await harness.get(url), 403, mentions: "Invalid secret")
            for wrong in ["Bearer s3cre", "Bearer s3cretx", "Bearer S3CRET", "s3cret", "Basic s3cret"] {
                let response = try await harness.get(url, headers: [Self.authorization: wrong])
                ServerStatusTests.expectError(response, 403, mentions: "Invalid secret")
            }
            #expect(harness.origin.stats.total == 0, "a refused request fetches nothing")
            let good = try await harness.get(url, headers: [Self.authorization: "Bearer s3cret"])
            #expect(good.status == .ok)
            for path in ["/health", "/metrics", "/"] { #expect(try await harness.get(path).status == .ok, "\(path)") }
            #expect(try await harness.get(url, method: .options).status == .ok)
            #expect(try await harness.get(url, method: .head).status == .ok, "imgproxy's HEAD asks no secret")
        }
    }

    @Test func anEmptySecretAsksForNone() async throws {
        try await ServerHarness.run(configure: { $0.secret = "" }) { harness in
            let response = try await harness.get(harness.url("w:10", "/geometry.png"))
            #expect(response.status == .ok)
        }
    }

    @Test func corsHeadersAreOnEveryResponseWithAnAllowedOrigin() async throws {
        try await ServerHarness.run(configure: { $0.allowOrigin = "https://app.example" }) { harness in
            let image = harness.url("w:10", "/geometry.png")
            for (path, method) in [
                (image, HTTPRequest.Method.get), (image, .options), ("/health", .get), (harness.url("w:x", "/a"), .get),
            ] {
                let response = try await harness.get(path, method: method)
                #expect(response.headers[.accessControlAllowOrigin] == "https://app.example", "\(method) \(path)")
                #expect(response.headers[.accessControlAllowMethods] == "GET, OPTIONS", "\(method) \(path)")
            }
        }
        try await ServerHarness.run { harness in
            let response = try await harness.get(harness.url("w:10", "/geometry.png"))
            #expect(response.headers[.accessControlAllowOrigin] == nil)
            #expect(response.headers[.accessControlAllowMethods] == nil)
        }
    }

    @Test(arguments: [(0, 0, true), (0, 1, false), (2, 2, true), (2, 3, false), (10, 10, true), (10, 11, false)])
    func maxRedirectsLimitsTheRedirectsFollowed(limit: Int, hops: Int, succeeds: Bool) async throws {
        try await ServerHarness.run(configure: { $0.limits.maxRedirects = limit }) { harness in
            let path = hops == 0 ? "/geometry.png" : "/redirect/\(hops)?to=%2Fgeometry.png"
            let response = try await harness.get(harness.url("w:10", path))
            if succeeds {
                #expect(response.status == .ok, "\(String(buffer: response.body))")
            } else {
                ServerStatusTests.expectError(response, 404)
            }
        }
    }

    @Test func allowedSourcesTakeImgproxysWildcard() async throws {
        try await ServerHarness.run(configure: { $0.allowedSources = ["http://127.0.0.*:*/geo"] }) { harness in
            #expect(try await harness.get(harness.url("w:10", "/geometry.png")).status == .ok)
            let refused = try await harness.get(harness.url("w:10", "/alpha.png"))
            ServerStatusTests.expectError(refused, 404, mentions: "not allowed")
        }
    }
}
