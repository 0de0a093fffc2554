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
            #expect(harness.origin.stats.total == 0, "refused before the download")
            try await blocker.open()
            #expect(try await harness.get(harness.url("w:50", "/geometry.png")).status == .ok)
        }
    }

    @Test func aWaiterShowsInTheGaugesAndGivesUpAfterTheQueueTimeoutWith503() async throws {
        try await ServerHarness.run(configure: {
            $0.limits.processingSlots = 1
            $0.limits.processingQueue = 1
            $0.limits.queueTimeout = .seconds(2)
        }) { harness in
            let gate = harness.server.responder.gate
            let serverMetrics = harness.server.responder.metrics
            let blocker = try await ProcessingGateTests.Blocker(gate, holding: 1)
            async let waiting = harness.get(harness.url("w:30", "/geometry.png"))
            // The exported text, read in process: the test client's one connection is busy with the waiting request.
            // The gauge follows the queue a moment later (it is set outside the gate's lock).
            let exported: @Sendable () -> MetricsText = {
                MetricsText(String(decoding: serverMetrics.text(shared: nil), as: UTF8.self))
            }
            try await ProcessingGateTests.Blocker.until {
                gate.waiting == 1 && exported().value("webimage_processing_queue_depth") == 1
            }
            #expect(exported().value("webimage_processing_in_flight") == 1, "\(exported().text)")
            let response = try await waiting
            #expect(response.status.code == 503)
            #expect(response.headers[.retryAfter] == "1")
            try await blocker.open()
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

    @Test func aSlowReaderHoldsNoProcessingSlot() async throws {
        // Noise (a linear congruential generator) does not compress: the PNG result is about 3 MB.
        let noise = PixelBuffer(width: 1000, height: 1000) { buffer in
            var state: UInt32 = 12_345
            for index in 0..<buffer.count {
                state = state &* 1_664_525 &+ 1_013_904_223
                buffer[index] = index % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: state >> 24)
            }
        }
        let png = try ImageCoders.default.encode(Image(pixels: noise), as: .png, options: .default)
        try await ServerHarness.run(configure: Self.oneSlot) { harness in
            harness.origin.register(png, at: "/noise.png")
            let port = try #require(harness.client.port)
            let reader = try SlowReader(port: port, path: harness.url("", "/noise.png", ext: "png"))
            let store = harness.server.responder.store
            let gate = harness.server.responder.gate
            do {
                // The reader takes the first kilobyte of the response and then nothing more.
                #expect(await ServeLifecycleTests.offPool { reader.read(1024) } > 0)
                try await ProcessingGateTests.Blocker.until { store.madeCount == 1 && gate.running == 0 }
                // Megabytes are still unread, yet the only slot is free: another image is processed.
                #expect(try await harness.get(harness.url("w:40", "/geometry.png")).status == .ok)
                #expect(store.madeCount == 2)
            } catch {
                reader.reset()
                throw error
            }
            reader.reset()
        }
    }

}
