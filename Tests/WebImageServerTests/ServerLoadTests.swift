import Foundation
import HummingbirdTesting
import Testing
import WebImage
import WebImageTesting

@testable import WebImageServer

/// The server under load: 503 with `Retry-After` when busy, cache hits and 304s past a full gate.
@Suite("Server: admission under load", .timeLimit(.minutes(1)))
struct ServerLoadTests {
    /// One slot, no queue: a second processing run is refused at once.
    static func oneSlot(_ configuration: inout ImageServerConfiguration) {
        configuration.limits.processingSlots = 1
        configuration.limits.processingQueue = 0
    }

    @Test func aFullGateAnswers503WithRetryAfterAndFetchesNothing() async throws {
        try await ServerHarness.run(configure: Self.oneSlot) { harness in
            let blocker = try await ProcessingGateTests.Blocker(harness.server.responder.gate, holding: 1)
            let response = try await harness.get(harness.url("w:50", "/geometry.png"))
            #expect(response.status.code == 503)
            #expect(response.headers[.retryAfter] == "1")
            #expect(response.headers[.cacheControl] == nil)
            try await blocker.open()
            #expect(try await harness.get(harness.url("w:50", "/geometry.png")).status == .ok)
        }
    }

    @Test(arguments: [64 * 1024 * 1024, 0])
    func cacheHitsAndNotModifiedDoNotWaitBehindProcessing(memoryBytes: Int) async throws {
        try await ServerHarness.run(configure: {
            Self.oneSlot(&$0)
            $0.resultMemoryCacheSize = memoryBytes
        }) { harness in
            let url = harness.url("w:50", "/geometry.png")
            let first = try await harness.get(url)
            #expect(first.status == .ok)
            let etag = try #require(first.headers[.eTag])
            let blocker = try await ProcessingGateTests.Blocker(harness.server.responder.gate, holding: 1)
            let hit = try await harness.get(url)
            #expect(hit.status == .ok)
            #expect(hit.body == first.body)
            #expect(try await harness.get(url, headers: [.ifNoneMatch: etag]).status == .notModified)
            #expect(try await harness.get(harness.url("w:51", "/geometry.png")).status.code == 503, "a miss")
            let metrics = String(buffer: try await harness.get("/metrics").body)
            let tier = memoryBytes > 0 ? "memory" : "disk"
            #expect(
                MetricsText(metrics).value("webimage_requests_total", ["cache": tier, "status": "200"]) == 1,
                "\(metrics)")
            try await blocker.open()
        }
    }
}
