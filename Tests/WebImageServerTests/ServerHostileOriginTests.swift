import AsyncHTTPClient
import Foundation
import HummingbirdTesting
import NIOCore
import Testing
import WebImageTesting

@testable import WebImageServer

@Suite("Server: hostile origins and concurrency")
struct ServerHostileOriginTests {
    /// After each hostile case the server still answers /health and a real image.
    static func expectStillServing(_ harness: ServerHarness) async throws {
        #expect(try await harness.get("/health").status == .ok)
        #expect(try await harness.get(harness.url("w:10", "/alpha.png")).status == .ok)
    }

    @Test func slowDripLyingLengthEndlessBodyAndRedirectLoops() async throws {
        try await ServerHarness.run(configure: {
            $0.limits.downloadTimeout = .seconds(2)
            $0.limits.maxSourceFileSize = 1_000_000
        }) { harness in
            let drip = try await harness.get(harness.url("", "/huge/200000?chunked&chunk=100&drip=50"))
            #expect(drip.status.code == 504 || drip.status.code == 422, "\(drip.status)")
            try await Self.expectStillServing(harness)

            let lie = try await harness.get(harness.url("", "/geometry.png?lie=5000"))
            #expect(lie.status.code == 422, "an incomplete source response, as imgproxy answers: \(lie.status)")
            try await Self.expectStillServing(harness)

            let endless = try await harness.get(harness.url("", "/huge/50000000?chunked"))
            #expect(endless.status.code == 422, "\(endless.status)")
            try await Self.expectStillServing(harness)

            let loop = try await harness.get(harness.url("", "/loop/a"))
            #expect(loop.status.code == 404, "\(loop.status)")
            try await Self.expectStillServing(harness)

            let truncated = try await harness.get(harness.url("", "/geometry.png?truncate=100"))
            #expect(truncated.status.code == 422, "\(truncated.status)")
            try await Self.expectStillServing(harness)
        }
    }

    @Test func fiftyIdenticalConcurrentRequestsMakeOneOriginFetch() async throws {
        try await ServerHarness.run { harness in
            let port = try #require(harness.client.port)
            let url = "http://127.0.0.1:\(port)" + harness.url("rs:fill:64:64", "/geometry.png")
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            do {
                let statuses = try await withThrowingTaskGroup(of: UInt.self) { group in
                    for _ in 0..<50 {
                        group.addTask {
                            let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
                            _ = try await response.body.collect(upTo: 1 << 20)
                            return response.status.code
                        }
                    }
                    return try await group.reduce(into: [UInt]()) { $0.append($1) }
                }
                #expect(statuses.count == 50 && statuses.allSatisfy { $0 == 200 })
            } catch {
                try await client.shutdown()
                throw error
            }
            try await client.shutdown()
            #expect(harness.origin.requestCount("/geometry.png") == 1)
            #expect(harness.server.responder.store.madeCount == 1, "one processing run")
        }
    }

    @Test func tenSizesOfOnePhotoFetchItOnce() async throws {
        try await ServerHarness.run { harness in
            for width in 10..<20 {
                let response = try await harness.get(harness.url("w:\(width)", "/geometry.png"))
                #expect(response.status == .ok)
            }
            #expect(harness.origin.requestCount("/geometry.png") == 1)
            #expect(harness.server.responder.store.madeCount == 10)
        }
    }

    @Test func localSourcesStayInsideTheRoot() async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("wis-local-\(UUID().uuidString)")
        let root = base.appendingPathComponent("root")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        let png = try Data(contentsOf: Fixtures.corpus.appendingPathComponent("images/gen_alpha.png"))
        try png.write(to: root.appendingPathComponent("a.png"))
        try png.write(to: base.appendingPathComponent("secret.png"))
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent("link.png"), withDestinationURL: base.appendingPathComponent("secret.png"))
        try await ServerHarness.run(configure: { $0.localRoot = root }) { harness in
            #expect(try await harness.get("/insecure/w:5/plain/local:%2F%2F%2Fa.png").status == .ok)
            for path in [
                "local:%2F%2F%2F..%2Fsecret.png", "local:%2F%2F%2Flink.png", "local:%2F%2F%2F%252e%252e%2Fsecret.png",
                "local:%2F%2F%2Fsub%2F..%2F..%2Fsecret.png", "local:%2F%2F%2Fmissing.png",
            ] {
                let response = try await harness.get("/insecure/plain/" + path)
                #expect(response.status == .notFound, "\(path)")
            }
        }
    }
}
