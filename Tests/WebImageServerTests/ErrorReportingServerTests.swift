import Foundation
import Hummingbird
import Logging
import Testing
import WebImage

@testable import WebImageServer

/// The server's reports as a vendor receives them: which answers are reported, that a fallback image does not hide
/// the failure, and that a dead or slow endpoint never changes an answer and drops reports beyond the queue.
@Suite("Server: error reporting", .timeLimit(.minutes(1)))
struct ErrorReportingServerTests {
    static func bugsnag(_ endpoint: FakeReportEndpoint) -> (inout ImageServerConfiguration) -> Void {
        { configuration in
            configuration.errorReporting.bugsnagKey = "test-key"
            configuration.errorReporting.bugsnagEndpoint = URL(string: endpoint.base + "/notify")!
        }
    }

    @Test func aSourceThatCannotBeDownloadedIsReportedAndAClientsMistakeIsNot() async throws {
        let endpoint = try await FakeReportEndpoint()
        try await ServerHarness.run(configure: Self.bugsnag(endpoint)) { harness in
            #expect(try await harness.get(harness.url("w:10", "/geometry.png")).status == .ok)
            #expect(try await harness.get(harness.url("w:nope", "/geometry.png")).status == .notFound)
            #expect(try await harness.get("/insecure/w:10/plain/ftp://x/a.png").status.code >= 400)
            var headers = HTTPFields()
            headers[HTTPFields.Element.Name("X-Request-ID")!] = "trace-9"
            let missing = try await harness.get(harness.url("w:10", "/missing.png"), headers: headers)
            #expect(missing.status == .notFound)
        }
        // The server's shutdown sends what it queued: the one report is there.
        let received = endpoint.requests
        await endpoint.stop()
        try #require(received.count == 1, "\(received.map { String(decoding: $0.body, as: UTF8.self) })")
        let report = received[0]
        #expect(report.path == "/notify")
        #expect(report.headers["bugsnag-api-key"] == "test-key")
        #expect(report.headers["bugsnag-payload-version"] == "5")
        let event = try #require((report.json["events"] as? [[String: Any]])?.first)
        let exception = (event["exceptions"] as? [[String: Any]])?.first
        #expect(exception?["errorClass"] as? String == "DownloadError")
        #expect(exception?["message"] as? String == "source answered 404")
        let url = try #require((event["request"] as? [String: Any])?["url"] as? String)
        #expect(url.hasPrefix("http://") && url.contains("/_/w:10/plain/"), "\(url)")
        #expect(url.hasSuffix("%2Fmissing.png") || url.hasSuffix("/missing.png"), "\(url)")
        let meta = (event["metaData"] as? [String: Any])?["Processing Context"] as? [String: Any]
        #expect(meta?["Request ID"] as? String == "trace-9")
        #expect((meta?["Source Image URL"] as? String)?.hasSuffix("/missing.png") == true)
    }

    @Test func theFallbackImageAnswersButTheFailureIsStillReported() async throws {
        let endpoint = try await FakeReportEndpoint()
        let answeredID = Locked<String?>(nil)
        let configure: (inout ImageServerConfiguration) -> Void = { configuration in
            Self.bugsnag(endpoint)(&configuration)
            configuration.fallbackImage = FallbackImageConfiguration(source: .data(FallbackImageServerTests.fallback))
        }
        try await ServerHarness.run(configure: configure) { harness in
            let response = try await harness.get(harness.url("w:10", "/missing.png"))
            #expect(response.status == .ok)
            answeredID.withLock { $0 = response.headers[HTTPFields.Element.Name("X-Request-ID")!] }
        }
        let received = endpoint.requests
        await endpoint.stop()
        try #require(received.count == 1)
        // The report names the request as its answer does, though the client sent no ID.
        let event = (received[0].json["events"] as? [[String: Any]])?.first
        let meta = (event?["metaData"] as? [String: Any])?["Processing Context"] as? [String: Any]
        let reportedID = try #require(meta?["Request ID"] as? String)
        #expect(reportedID.count == 21 && reportedID == answeredID.withLock { $0 })
    }

    @Test func withoutDownloadingErrorsAMissingSourceIsNotReported() async throws {
        let endpoint = try await FakeReportEndpoint()
        let configure: (inout ImageServerConfiguration) -> Void = { configuration in
            Self.bugsnag(endpoint)(&configuration)
            configuration.errorReporting.reportsDownloadingErrors = false
        }
        try await ServerHarness.run(configure: configure) { harness in
            let response = try await harness.get(harness.url("w:10", "/missing.png"))
            #expect(response.status == .notFound)
        }
        let received = endpoint.requests
        await endpoint.stop()
        #expect(received.isEmpty)
    }

    @Test func aDeadEndpointChangesNoAnswerAndItsFailuresAreCounted() async throws {
        let configure: (inout ImageServerConfiguration) -> Void = { configuration in
            configuration.errorReporting.honeybadgerKey = "k"
            configuration.errorReporting.honeybadgerEndpoint = URL(string: "http://127.0.0.1:1")!
        }
        try await ServerHarness.run(configure: configure) { harness in
            for _ in 0..<3 {
                let missing = try await harness.get(harness.url("w:10", "/missing.png"))
                #expect(missing.status == .notFound)
                #expect(String(buffer: missing.body) == "source answered 404\n")
                #expect(try await harness.get(harness.url("w:10", "/geometry.png")).status == .ok)
            }
            var failed: Double?
            for _ in 0..<500 where failed != 3 {
                let text = String(buffer: try await harness.get("/metrics").body)
                failed = MetricsText(text).value(
                    "webimage_error_reports_total", ["reporter": "honeybadger", "result": "failed"])
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(failed == 3)
        }
    }

    @Test func aBurstBeyondTheQueueIsDroppedAndCounted() async throws {
        let endpoint = try await FakeReportEndpoint(holds: true)
        var configuration = ErrorReportingConfiguration()
        configuration.airbrakeProjectID = 5
        configuration.airbrakeProjectKey = "k"
        configuration.airbrakeEndpoint = URL(string: endpoint.base)!
        configuration.queueLimit = 1
        let counts = Locked<[String: Int]>([:])
        let reporter = try #require(
            ErrorReporter(configuration, logger: Logger(label: "test")) { delivery in
                counts.withLock { $0[delivery.result, default: 0] += 1 }
            })
        for _ in 0..<20 {
            reporter.report(
                ImageServerError(status: 500, "boom"), method: "GET", host: "h", path: "/s/w:1/plain/x",
                source: nil, requestID: "")
        }
        // At most one batch is being sent and one report waits: the rest were dropped at once.
        #expect(counts.withLock { $0["dropped"] ?? 0 } >= 20 - ErrorReporter.batchSize - 1)
        endpoint.release()
        await reporter.shutdown()
        let final = counts.withLock { $0 }
        #expect(final.values.reduce(0, +) == 20, "\(final)")
        #expect(endpoint.requests.allSatisfy { $0.path == "/api/v3/projects/5/notices" })
        await endpoint.stop()
    }
}

/// imgproxy's `IMGPROXY_REPORT_IO_ERRORS`: a response whose body cannot be written is reported only when asked.
@Suite struct ErrorReportingWriteTests {
    /// A connection that went away: every write fails.
    struct BrokenWriter: ResponseBodyWriter {
        struct Gone: Error {}
        mutating func write(_ buffer: ByteBuffer) async throws { throw Gone() }
        consuming func finish(_ trailingHeaders: HTTPFields?) async throws { throw Gone() }
    }

    @Test(arguments: [true, false])
    func aResponseThatCannotBeWrittenIsReportedOnlyWithIOErrors(reportsIOErrors: Bool) async throws {
        let endpoint = try await FakeReportEndpoint()
        var configuration = ErrorReportingConfiguration()
        configuration.bugsnagKey = "k"
        configuration.bugsnagEndpoint = URL(string: endpoint.base)!
        configuration.reportsIOErrors = reportsIOErrors
        let reporter = try #require(ErrorReporter(configuration, logger: Logger(label: "test")) { _ in })
        let request = Request(
            head: HTTPRequest(method: .get, scheme: "http", authority: "img.test", path: "/sig/w:1/plain/x"),
            body: RequestBody(buffer: ByteBuffer()))
        let outcome = RequestOutcome(
            response: Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: "image"))))
        let response = reporter.reported(outcome, request: request, path: "/sig/w:1/plain/x")
        await #expect(throws: BrokenWriter.Gone.self) { try await response.body.write(BrokenWriter()) }
        await reporter.shutdown()
        let received = endpoint.requests
        await endpoint.stop()
        #expect(received.count == (reportsIOErrors ? 1 : 0))
        if let event = (received.first?.json["events"] as? [[String: Any]])?.first {
            let exception = (event["exceptions"] as? [[String: Any]])?.first
            #expect(exception?["errorClass"] as? String == "ResponseWriteError")
            #expect((event["request"] as? [String: Any])?["url"] as? String == "http://img.test/_/w:1/plain/x")
        }
    }
}
