import Foundation
import Logging
import Testing
import Tracing

@testable import WebImageServer

/// Datadog's, New Relic's and OpenTelemetry's tracers as one ``TracerSet``, in process: each request a span of each
/// under its own parent, each tracer reading its own headers of a caller, and a set writing the headers of its
/// tracers alone (the origins' set is made of the tracers whose `_PROPAGATE_EXTERNAL` is on).
@Suite struct TracerSetTests {
    typealias Headers = DatadogTracerTests.Headers

    /// A transport that sends nothing (the OTLP spans are read from their contexts).
    struct Nowhere: OTLPTransport {
        let endpoint = "nowhere"
        func export(_ request: OTLPMessage, signal: OTLPSignal) async throws {}
        func run() async throws {}
        func shutdown() async {}
    }

    static let trace = "4bf92f3577b34da6a3ce929d0e0e4736"
    /// A caller in a Datadog trace and a W3C one.
    static let caller = [
        "x-datadog-trace-id": "123", "x-datadog-parent-id": "456", "traceparent": "00-\(trace)-00f067aa0ba902b7-01",
    ]

    static func newRelic() -> NewRelicTracer {
        NewRelicTracer(
            NewRelicMonitoring(
                key: "license", appName: "images", labels: [:], accountID: "1234",
                endpoint: URL(string: "http://127.0.0.1:9")),
            logger: Logger(label: "test"))
    }

    static func otlp() -> OTLPTracer {
        OTLPTracer(
            transport: Nowhere(), resource: ["service.name": "unit"], generator: .random, sampler: .default,
            limits: .spans, logger: Logger(label: "test"))
    }

    @Test func aSpanIsOneSpanOfEachTracerUnderItsOwnParent() throws {
        let (newRelic, datadog, otlp) = (Self.newRelic(), DatadogTracerTests.tracer(), Self.otlp())
        let set = TracerSet([newRelic, datadog, otlp])
        var context = ServiceContext.topLevel
        set.extract(Self.caller, into: &context, using: Headers())
        let request = set.startSpan("GET /**", context: context, ofKind: .server)
        request.attributes["http.request.method"] = "GET"
        request.attributes["http.response.status_code"] = 200
        let fetch = set.startSpan("source fetch", context: request.context, ofKind: .internal)
        #expect(fetch.isRecording)
        fetch.recordError(CancellationError())
        fetch.end()
        #expect(!fetch.isRecording)
        request.end()

        // Datadog: the caller's trace, the fetch under the request, both with imgproxy's names.
        let datadogSpans = datadog.drain()
        #expect(datadogSpans.map(\.name) == ["downloading_source_image", "request"])
        #expect(Set(datadogSpans.map(\.traceID)) == [123])
        #expect(datadogSpans[1].parentID == 456)
        #expect(datadogSpans[0].parentID == datadogSpans[1].spanID)
        #expect(datadogSpans[0].error)
        #expect(datadogSpans[1].meta["http.status_code"] == "200")
        // New Relic: the caller's W3C trace, the fetch a segment of the request's transaction.
        let newRelicSpans = newRelic.drain()
        #expect(newRelicSpans.count == 2)
        #expect(Set(newRelicSpans.map(\.traceID)) == [Self.trace])
        let entry = try #require(newRelicSpans.first { $0.attributes["nr.entryPoint"] != nil })
        let segment = try #require(newRelicSpans.first { $0.attributes["nr.entryPoint"] == nil })
        #expect(segment.attributes["parent.id"] == .string(entry.id))
        #expect(entry.attributes["parent.id"] == .string("00f067aa0ba902b7"))
        // OpenTelemetry: the caller's W3C trace, the fetch's parent the request's span.
        let requestIDs = try #require(request.context.otlpSpan)
        let fetchIDs = try #require(fetch.context.otlpSpan)
        #expect(requestIDs.traceparent.hasPrefix("00-\(Self.trace)-"))
        #expect(fetchIDs.traceID == requestIDs.traceID)
        #expect(fetchIDs.spanID != requestIDs.spanID)
        // The set's context carries every tracer's span.
        #expect(fetch.context.datadogSpan?.spanID == datadogSpans[0].spanID)
        #expect(fetch.context.newRelicSpan?.spanID == segment.id)
    }

    @Test func eachTracerWritesItsOwnHeadersAndASetOnlyItsTracers() throws {
        let (newRelic, datadog, otlp) = (Self.newRelic(), DatadogTracerTests.tracer(), Self.otlp())
        let request = TracerSet([newRelic, datadog, otlp]).startSpan("GET /**", context: .topLevel, ofKind: .server)
        defer { request.end() }
        func headers(_ tracers: [any Tracer]) -> [String: String] {
            var headers: [String: String] = [:]
            TracerSet(tracers).inject(request.context, into: &headers, using: Headers())
            return headers
        }
        let datadogOnly = headers([datadog])
        #expect(Set(datadogOnly.keys) == ["x-datadog-trace-id", "x-datadog-parent-id", "x-datadog-sampling-priority"])
        #expect(datadogOnly["x-datadog-parent-id"] == request.context.datadogSpan.map { String($0.spanID) })
        let newRelicOnly = headers([newRelic])
        #expect(Set(newRelicOnly.keys) == ["traceparent", "tracestate", "newrelic"])
        let newRelicTrace = try #require(request.context.newRelicSpan?.traceID)
        #expect(newRelicOnly["traceparent"]?.hasPrefix("00-\(newRelicTrace)-") == true)
        #expect(newRelicOnly["tracestate"]?.hasPrefix("1234@nr=") == true)
        let otlpOnly = headers([otlp])
        #expect(Set(otlpOnly.keys) == ["traceparent"])
        #expect(otlpOnly["traceparent"] == request.context.otlpSpan?.traceparent)
        // All three: of the two `traceparent`s the later tracer's (OpenTelemetry's) is sent, as in imgproxy.
        let all = headers([newRelic, datadog, otlp])
        #expect(Set(all.keys) == Set(datadogOnly.keys).union(newRelicOnly.keys))
        #expect(all["traceparent"] == otlpOnly["traceparent"])
        #expect(headers([]).isEmpty)
    }

    @Test func theSpansShareTheirNameStatusAndEnd() {
        let (newRelic, datadog) = (Self.newRelic(), DatadogTracerTests.tracer())
        let set = TracerSet([newRelic, datadog])
        let request = set.startSpan("GET /**", context: .topLevel, ofKind: .server)
        let stage = set.startSpan("decode", context: request.context, ofKind: .internal)
        stage.operationName = "source fetch"
        #expect(stage.operationName == "source fetch")
        stage.setStatus(SpanStatus(code: .error))
        stage.end()
        stage.end()
        request.end()
        let datadogSpans = datadog.drain()
        let newRelicSpans = newRelic.drain()
        #expect(datadogSpans.map(\.name) == ["downloading_source_image", "request"])
        #expect(datadogSpans.first?.error == true)
        #expect(newRelicSpans.first?.attributes["name"] == .string("Custom/Downloading source image"))
        #expect(newRelicSpans.count == 2)
    }
}
