import CoreMetrics
import Foundation
import Logging
import ServiceLifecycle
import Testing
import Tracing
import WebImage

@testable import WebImageServer

/// The OTLP tracer and log handler of `webimage serve`, in process: the export requests they make, read back by the
/// tests' own protobuf reader (``ProtobufFields``) and by `JSONSerialization`; the trace-ID generators; `traceparent`.
@Suite struct OTLPEncodingTests {
    /// A transport that keeps what it is given.
    final class Recorder: OTLPTransport {
        let endpoint = "recorder"
        let requests = Locked<[(OTLPSignal, OTLPMessage)]>([])

        func export(_ request: OTLPMessage, signal: OTLPSignal) async throws {
            requests.withLock { $0.append((signal, request)) }
        }
        func run() async throws {}
        func shutdown() async {}
    }

    private static let limits = OTLPBatchLimits(
        scheduleDelay: .seconds(3600), maximumQueueSize: 100, maximumBatchSize: 100, exportTimeout: .seconds(30))

    /// Runs `tracer` while `body` makes spans, then stops it (which exports what waits) and returns the requests.
    private static func spans(
        generator: TraceIDGenerator = .random, sampler: TraceSampler = .default,
        _ body: @Sendable (OTLPTracer) -> Void
    ) async throws -> [OTLPMessage] {
        let recorder = Recorder()
        let tracer = OTLPTracer(
            transport: recorder, resource: ["service.name": "unit"], generator: generator, sampler: sampler,
            limits: limits, logger: Logger(label: "test"))
        try await Self.running(tracer) { body(tracer) }
        return recorder.requests.withLock { $0.map(\.1) }
    }

    /// Runs `service` in a service group while `body` runs, then shuts the group down gracefully.
    private static func running(_ service: any Service, _ body: () -> Void) async throws {
        let group = ServiceGroup(services: [service], logger: Logger(label: "test"))
        let running = Task { try await group.run() }
        body()
        await group.triggerGracefulShutdown()
        try await running.value
    }

    @Test func spansAreEncodedAsProtobufUnderTheScopeImgproxy() async throws {
        let requests = try await Self.spans { tracer in
            let root = tracer.startSpan("request", context: .topLevel, ofKind: .server)
            root.attributes["http.request.method"] = "GET"
            root.attributes["http.response.status_code"] = 200
            let child = tracer.startSpan("processing", context: root.context, ofKind: .internal)
            child.addEvent(SpanEvent(name: "decoded"))
            child.recordError(CancellationError())
            child.end()
            root.setStatus(SpanStatus(code: .ok))
            root.end()
        }
        let records = requests.flatMap { ProtobufFields.records(in: Data($0.protobuf())) }
        #expect(records.map(\.scope) == ["imgproxy", "imgproxy"])
        let child = try #require(records.first { $0.record.string(5) == "processing" }?.record)
        let root = try #require(records.first { $0.record.string(5) == "request" }?.record)
        #expect(root.bytes(1)?.count == 16 && root.bytes(2)?.count == 8 && root.bytes(4) == nil)
        #expect(child.bytes(1) == root.bytes(1) && child.bytes(4) == root.bytes(2))
        #expect(root.number(6) == 2 && child.number(6) == 1)
        #expect(root.stringAttributes(9) == ["http.request.method": "GET"])
        let status = try #require(root.messages(9).first { $0.string(1) == "http.response.status_code" })
        #expect(status.messages(2).first?.number(3) == 200)
        #expect(try #require(root.number(8)) >= root.number(7) ?? .max)
        #expect(root.messages(15).first?.number(3) == 1)
        #expect(child.messages(15).first?.number(3) == 2)
        #expect(child.messages(11).map { $0.string(2) } == ["decoded", "exception"])
        let resource = try #require(ProtobufFields(requests[0].protobuf())?.messages(1).first?.messages(1).first)
        #expect(resource.stringAttributes(1)["service.name"] == "unit")
    }

    @Test func theSameRequestAsOTLPJSON() async throws {
        let requests = try await Self.spans { tracer in
            let span = tracer.startSpan("say \"hi\"\n", context: .topLevel, ofKind: .client)
            span.attributes["ratio"] = 0.5
            span.end()
        }
        let json = try #require(requests.first?.json())
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
        let resource = try #require((root["resourceSpans"] as? [[String: Any]])?.first)
        let scoped = try #require((resource["scopeSpans"] as? [[String: Any]])?.first)
        #expect((scoped["scope"] as? [String: Any])?["name"] as? String == "imgproxy")
        let span = try #require((scoped["spans"] as? [[String: Any]])?.first)
        #expect(span["name"] as? String == "say \"hi\"\n")
        #expect((span["traceId"] as? String)?.count == 32 && (span["spanId"] as? String)?.count == 16)
        #expect(span["kind"] as? Int == 3)
        #expect(Int(span["startTimeUnixNano"] as? String ?? "") != nil)
        let attribute = try #require((span["attributes"] as? [[String: Any]])?.first)
        #expect((attribute["value"] as? [String: Any])?["doubleValue"] as? Double == 0.5)
    }

    @Test func xrayTraceIDsStartWithTheUnixTimeInSeconds() {
        let before = UInt32(Date().timeIntervalSince1970.rounded(.down))
        let ids = (0..<64).map { _ in TraceIDGenerator.xray.traceID() }
        let after = UInt32(Date().timeIntervalSince1970.rounded(.up))
        for id in ids {
            let seconds = id.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            #expect(id.count == 16 && (before...after).contains(seconds), "\(id)")
        }
        #expect(Set(ids.map { Array($0.suffix(12)) }).count == ids.count)
    }

    @Test func randomTraceIDsDoNot() {
        let now = UInt32(Date().timeIntervalSince1970)
        let ids = (0..<64).map { _ in TraceIDGenerator.random.traceID() }
        #expect(Set(ids).count == ids.count && ids.allSatisfy { $0.count == 16 })
        let stamped = ids.filter { id in
            let seconds = id.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            return seconds >= now - 60 && seconds <= now + 60
        }
        #expect(stamped.isEmpty)
        #expect(TraceIDGenerator(name: "xray") == .xray && TraceIDGenerator(name: "random") == .random)
        #expect(TraceIDGenerator(name: "XRay") == nil && TraceIDGenerator(name: "") == nil)
    }

    @Test func aTraceparentIsContinuedAndWrittenBack() async throws {
        let header = "00-0af7651916cd43dd8448eb211c80933b-b7ad6b7169203331-01"
        var context = ServiceContext.topLevel
        let recorder = Recorder()
        let tracer = OTLPTracer(
            transport: recorder, resource: [:], generator: .xray, sampler: .default, limits: Self.limits,
            logger: Logger(label: "test"))
        tracer.extract(
            ["traceparent": header, "tracestate": "vendor=1"], into: &context, using: DictionaryExtractor())
        let span = tracer.startSpan("request", context: context, ofKind: .server)
        var written: [String: String] = [:]
        tracer.inject(span.context, into: &written, using: DictionaryInjector())
        #expect(written["traceparent"]?.hasPrefix("00-0af7651916cd43dd8448eb211c80933b-") == true)
        #expect(written["traceparent"]?.hasSuffix("-01") == true && written["traceparent"] != header)
        #expect(written["tracestate"] == "vendor=1")
        for bad in [
            "00-00000000000000000000000000000000-b7ad6b7169203331-01",
            "ff-0af7651916cd43dd8448eb211c80933b-b7ad6b7169203331-01",
            "00-0AF7651916CD43DD8448EB211C80933B-b7ad6b7169203331-01",
            "00-0af7651916cd43dd8448eb211c80933b-b7ad6b71692033-01",
            "00-0af7651916cd43dd8448eb211c80933b-b7ad6b7169203331-01-00", "",
        ] {
            #expect(OTLPSpanContext(traceparent: bad, traceState: nil) == nil, "\(bad)")
        }
        #expect(
            OTLPSpanContext(traceparent: "01-0af7651916cd43dd8448eb211c80933b-b7ad6b7169203331-00-x", traceState: nil)?
                .sampled == false)
    }

    @Test func theSamplerFollowsTheCallerAndTheRatio() async throws {
        let never = try #require(TraceSampler(name: "always_off", argument: nil))
        let requests = try await Self.spans(sampler: never) { tracer in
            let span = tracer.startSpan("request", context: .topLevel, ofKind: .server)
            #expect(!span.isRecording)
            span.end()
        }
        #expect(requests.isEmpty)
        let caller = OTLPSpanContext(
            traceID: Array(repeating: 1, count: 16), spanID: Array(repeating: 2, count: 8), sampled: true,
            traceState: nil)
        let parentBased = try #require(TraceSampler(name: "parentbased_traceidratio", argument: "0"))
        #expect(parentBased.sampled(traceID: caller.traceID, parent: caller))
        #expect(!parentBased.sampled(traceID: caller.traceID, parent: nil))
        #expect(TraceSampler(name: "traceidratio", argument: "1.5") == nil)
        #expect(TraceSampler(name: "sometimes", argument: nil) == nil)
    }

    @Test func metricsAreExportedUnderTheScopeImgproxy() async throws {
        let recorder = Recorder()
        let factory = OTLPMetricsFactory(
            transport: recorder, resource: [:], interval: .seconds(3600), timeout: .seconds(30), delta: false,
            logger: Logger(label: "test"))
        try await Self.running(factory.exporter) {
            Counter(label: "requests_total", dimensions: [("status", "200")], factory: factory).increment(by: 3)
            Meter(label: "images_in_progress", factory: factory).set(2.5)
            let timer = CoreMetrics.Timer(label: "request_duration_seconds", factory: factory)
            timer.recordNanoseconds(20_000_000)
            timer.recordNanoseconds(3_000_000_000)
        }
        let records = recorder.requests.withLock { $0 }.flatMap { ProtobufFields.records(in: Data($0.1.protobuf())) }
        #expect(Set(records.map(\.scope)) == ["imgproxy"])
        let metrics = Dictionary(records.map { ($0.record.string(1) ?? "", $0.record) }) { first, _ in first }
        let sum = try #require(metrics["requests_total"]?.messages(7).first)
        #expect(sum.number(2) == 2 && sum.number(3) == 1)
        let point = try #require(sum.messages(1).first)
        #expect(point.number(6) == 3 && point.stringAttributes(7) == ["status": "200"])
        let gauge = try #require(metrics["images_in_progress"]?.messages(5).first?.messages(1).first)
        #expect(gauge.number(4) == (2.5).bitPattern)
        let histogram = try #require(metrics["request_duration_seconds"]?.messages(9).first?.messages(1).first)
        #expect(histogram.number(4) == 2)
        let counts = (histogram.fields[6] ?? []).map { value -> UInt64 in
            if case .number(let n) = value { n } else { 0 }
        }
        #expect(counts.count == OTLPMetricsFactory.durationBounds.count + 1 && counts.reduce(0, +) == 2)
        #expect(counts[2] == 1 && counts[11] == 1)
    }

    @Test func logRecordsCarryTheLoggerNameAsTheirScope() async throws {
        let recorder = Recorder()
        let exporter = OTLPLogHandler.Exporter(
            transport: recorder, resource: [:], scope: "my-logger", limits: Self.limits, logger: Logger(label: "test"))
        try await Self.running(exporter) {
            let logger = Logger(label: "webimage") { _ in OTLPLogHandler(exporter: exporter) }
            logger.warning("request", metadata: ["source_host": "example.com"])
        }
        let records = recorder.requests.withLock { $0 }.flatMap { ProtobufFields.records(in: Data($0.1.protobuf())) }
        #expect(records.map(\.scope) == ["my-logger"])
        let record = try #require(records.first?.record)
        #expect(record.number(2) == 13 && record.string(3) == "WARN")
        #expect(record.messages(5).first?.string(1) == "request")
        #expect(record.stringAttributes(6) == ["source_host": "example.com"])
    }
}

/// Reads a `[String: String]` carrier.
private struct DictionaryExtractor: Extractor {
    func extract(key: String, from carrier: [String: String]) -> String? { carrier[key] }
}

/// Writes into a `[String: String]` carrier.
private struct DictionaryInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) { carrier[key] = value }
}
