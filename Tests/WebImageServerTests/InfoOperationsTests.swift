import AsyncHTTPClient
import Foundation
import HummingbirdTesting
import NIOCore
import Testing
import WebImage
import WebImageTesting

@testable import WebImageServer

/// `/info` as a first-class request, against a live server and a local origin: counted in the metrics and the
/// request log apart from image requests (`endpoint="info"`), under the request's deadline, and identical requests in
/// flight answered by one fetch and one analysis.
@Suite("Server: /info in the metrics, the log, the deadline and merging")
struct InfoOperationsTests {
    @Test func infoRequestsAreCountedAndLoggedApartFromImages() async throws {
        let capture = LogCapture()
        let logger = capture.logger
        try await ServerHarness.run(configure: { $0.logger = logger }) { harness in
            let info = InfoServerTests.infoURL(harness, "avg:1", "/geometry.png?token=secret123")
            let miss = try await harness.get(info)
            #expect(miss.status == .ok)
            #expect(try await harness.get(info).status == .ok)
            #expect(
                try await harness.get(InfoServerTests.infoURL(harness, "nope:1", "/geometry.png")).status == .notFound)
            #expect(try await harness.get(InfoServerTests.infoURL(harness, "", "/status/500")).status.code == 502)
            let image = try await harness.get(harness.url("w:50", "/geometry.png"))
            #expect(image.status == .ok)
            let metrics = MetricsText(String(buffer: try await harness.get("/metrics").body))
            func requests(_ labels: [String: String]) -> Double? { metrics.value("webimage_requests_total", labels) }
            #expect(requests(["endpoint": "info", "status": "200", "cache": "miss"]) == 1)
            #expect(requests(["endpoint": "info", "status": "200", "cache": "memory"]) == 1)
            #expect(requests(["endpoint": "info", "status": "404", "cache": "none"]) == 1)
            #expect(requests(["endpoint": "info", "status": "502", "cache": "none"]) == 1)
            #expect(requests(["endpoint": "image", "status": "200", "cache": "miss"]) == 1)
            #expect(requests(["endpoint": "image", "status": "200", "cache": "memory"]) == nil)
            #expect(metrics.value("webimage_origin_errors_total", ["kind": "status_5xx"]) == 1)
            #expect(metrics.value("errors_total", ["type": "path_parsing"]) == 1, "the unknown info option")
            #expect(metrics.value("errors_total", ["type": "download"]) == 1, "the origin's 500")
            #expect(metrics.value("requests_total") == 5, "four info requests and one image")
            #expect(metrics.value("webimage_processing_runs_total") == 2, "one analysis, one image")
            let out = Double(miss.body.readableBytes * 2 + image.body.readableBytes)
            #expect(metrics.value("webimage_bytes_out_total") == out, "two info bodies, one image")

            let lines = capture.lines.withLock { $0 }.filter { $0.hasPrefix("info request") }
            let infoLines = lines.filter { $0.contains("endpoint=info") }
            #expect(infoLines.count == 4, "\(lines)")
            #expect(lines.filter { $0.contains("endpoint=image") }.count == 1, "\(lines)")
            #expect(infoLines.first?.contains("cache=miss") == true)
            #expect(infoLines.first?.contains("source_host=127.0.0.1") == true)
            #expect(infoLines.first?.contains("bytes=\(miss.body.readableBytes)") == true)
            #expect(infoLines.dropFirst().first?.contains("cache=memory") == true)
            #expect(infoLines.dropFirst(2).first?.contains("status=404") == true)
            for line in lines {
                #expect(!line.contains("secret123") && !line.contains("geometry") && !line.contains("avg"), "\(line)")
            }
        }
    }

    @Test func aSlowSourceAnswers503AtTheRequestDeadline() async throws {
        try await ServerHarness.run(configure: {
            $0.limits.requestTimeout = .milliseconds(500)
            $0.limits.downloadTimeout = .seconds(10)
        }) { harness in
            let start = ContinuousClock.now
            let response = try await harness.get(
                InfoServerTests.infoURL(harness, "avg:1", "/geometry.png?delay=9000"),
                headers: [.accept: "application/json"])
            let elapsed = ContinuousClock.now - start
            #expect(response.status.code == 503)
            #expect(String(buffer: response.body).contains("request timed out"))
            // The source comes after 9 s: well before it, even on a loaded machine.
            #expect(elapsed < .seconds(7), "answered at the deadline, not when the source came")
            let metrics = MetricsText(String(buffer: try await harness.get("/metrics").body))
            #expect(metrics.value("webimage_requests_total", ["endpoint": "info", "status": "503"]) == 1)
        }
    }

    @Test func identicalRequestsInFlightShareOneFetchAndOneAnalysis() async throws {
        try await ServerHarness.run { harness in
            let info = try #require(harness.server.info)
            let port = try #require(harness.client.port)
            let path = InfoServerTests.infoURL(harness, "avg:1/bh:4:3", "/geometry.png?gate=info")
            let callers = 8
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            do {
                let bodies = try await withThrowingTaskGroup(of: (UInt, String).self) { group in
                    for _ in 0..<callers {
                        group.addTask {
                            let request = HTTPClientRequest(url: "http://127.0.0.1:\(port)" + path)
                            let response = try await client.execute(request, timeout: .seconds(30))
                            let body = try await response.body.collect(upTo: 1 << 20)
                            return (response.status.code, String(buffer: body))
                        }
                    }
                    // Every caller waits on the one analysis, whose fetch the origin holds.
                    try await ProcessingGateTests.Blocker.until {
                        info.waitingCount == callers && harness.origin.requestCount("/geometry.png") == 1
                    }
                    harness.origin.openGate("info")
                    return try await group.reduce(into: [(UInt, String)]()) { $0.append($1) }
                }
                #expect(bodies.count == callers && bodies.allSatisfy { $0.0 == 200 })
                #expect(Set(bodies.map(\.1)).count == 1, "one answer for all")
            } catch {
                try await client.shutdown()
                throw error
            }
            try await client.shutdown()
            #expect(harness.origin.requestCount("/geometry.png") == 1)
            #expect(info.madeCount == 1, "one analysis")
            let metrics = MetricsText(String(buffer: try await harness.get("/metrics").body))
            #expect(metrics.value("webimage_requests_total", ["endpoint": "info", "cache": "miss"]) == Double(callers))
            #expect(metrics.value("webimage_processing_runs_total") == 1)
        }
    }
}
