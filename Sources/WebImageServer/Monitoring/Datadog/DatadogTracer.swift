import Foundation
import Instrumentation
import Logging
import ServiceLifecycle
import Tracing
import WebImage

/// A swift-distributed-tracing tracer that sends spans to a Datadog agent's `/v0.4/traces` in msgpack, as imgproxy's
/// dd-trace-go does with `IMGPROXY_DATADOG_ENABLE`: the request span `request` and its children under imgproxy's
/// names (`request`, `queue`, `downloading_source_image`, `processing_image`), tagged with the service, `env` and
/// `version`.
///
/// Bootstrap it in `InstrumentationSystem`, alone or beside other tracers in a ``TracerSet``, and run it as a service
/// beside the server (it sends what it holds every second and on graceful shutdown). It continues a trace whose
/// `x-datadog-trace-id` and `x-datadog-parent-id` headers a request carries, and writes them (with
/// `x-datadog-sampling-priority`) into the requests to origins when the server propagates the trace context with it
/// (``ImageServerConfiguration/originTraceInstrument``, imgproxy's `IMGPROXY_DATADOG_PROPAGATE_EXTERNAL`).
/// At most ``maximumPending`` spans wait to be sent; past that, and when the agent does not answer, spans are
/// dropped (logged at most once a minute), never a request delayed.
public final class DatadogTracer: Tracer, Service {
    /// The most spans waiting to be sent.
    public static let maximumPending = 10_000

    /// The agent's base URL (`http://localhost:8126`; `DD_TRACE_AGENT_URL`, or `DD_AGENT_HOST` and
    /// `DD_TRACE_AGENT_PORT`).
    public let agent: URL
    /// The service of every span (`DD_SERVICE`, imgproxy's default `imgproxy`).
    public let service: String
    private let tags: [String: String]
    private let pending = SpanBuffer<DatadogSpanRecord>(limit: DatadogTracer.maximumPending)
    private let log: DropLog

    /// A tracer for `service`, sending to `agent`, each span tagged `env` and `version` when given.
    public init(agent: URL, service: String, environment: String?, version: String?, logger: Logger) {
        self.agent = agent
        self.service = service
        var tags = ["language": "swift"]
        tags["env"] = environment
        tags["version"] = version
        self.tags = tags
        log = DropLog(logger: logger)
    }

    /// Starts a span, a child of the context's Datadog span (of this process or a caller's), else a new trace's root.
    public func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> ServiceContext, ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> RecordingSpan {
        var context = context()
        let caller = context.datadogSpan
        let ids = DatadogSpanContext(
            traceID: caller?.traceID ?? Self.newID(), spanID: Self.newID(),
            samplingPriority: caller?.samplingPriority ?? 1, origin: caller?.origin,
            traceIDHigh: caller?.traceIDHigh)
        context.datadogSpan = ids
        let parentID = caller?.spanID ?? 0
        return RecordingSpan(
            name: operationName, context: context, kind: kind, start: instant().nanosecondsSinceEpoch
        ) { [weak self] span in
            self?.finished(DatadogNames.record(span, ids: ids, parentID: parentID), priority: ids.samplingPriority)
        }
    }

    /// Nothing: spans are sent every second by ``run()``.
    public func forceFlush() {}

    /// Reads a caller's trace from `x-datadog-trace-id`, `x-datadog-parent-id`, `x-datadog-sampling-priority`,
    /// `x-datadog-origin` and `x-datadog-tags` (`_dd.p.tid`).
    public func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract
    ) where Extract.Carrier == Carrier {
        guard let trace = extractor.extract(key: "x-datadog-trace-id", from: carrier).flatMap({ UInt64($0) }),
            let parent = extractor.extract(key: "x-datadog-parent-id", from: carrier).flatMap({ UInt64($0) }),
            trace != 0
        else { return }
        let priority = extractor.extract(key: "x-datadog-sampling-priority", from: carrier).flatMap { Int($0) }
        let tags = extractor.extract(key: "x-datadog-tags", from: carrier) ?? ""
        let high = tags.split(separator: ",").first { $0.hasPrefix("_dd.p.tid=") }.map { String($0.dropFirst(10)) }
        context.datadogSpan = DatadogSpanContext(
            traceID: trace, spanID: parent, samplingPriority: priority ?? 1,
            origin: extractor.extract(key: "x-datadog-origin", from: carrier), traceIDHigh: high)
    }

    /// Writes the current span's `x-datadog-*` headers.
    public func inject<Carrier, Inject: Injector>(
        _ context: ServiceContext, into carrier: inout Carrier, using injector: Inject
    ) where Inject.Carrier == Carrier {
        guard let span = context.datadogSpan else { return }
        injector.inject(String(span.traceID), forKey: "x-datadog-trace-id", into: &carrier)
        injector.inject(String(span.spanID), forKey: "x-datadog-parent-id", into: &carrier)
        injector.inject(String(span.samplingPriority), forKey: "x-datadog-sampling-priority", into: &carrier)
        if let origin = span.origin { injector.inject(origin, forKey: "x-datadog-origin", into: &carrier) }
        if let high = span.traceIDHigh {
            injector.inject("_dd.p.tid=" + high, forKey: "x-datadog-tags", into: &carrier)
        }
    }

    /// Sends the spans every second until the service group shuts down, then once more.
    public func run() async throws {
        let sender = DatadogTraceSender(agent: agent, log: log)
        await pending.run { await sender.send($0) }
        await sender.shutdown()
    }

    /// The spans waiting, taken out.
    func drain() -> [DatadogSpanRecord] { pending.drain() }

    /// Keeps `record`, tagged with the service and the tracer's tags, to be sent.
    private func finished(_ record: DatadogSpanRecord, priority: Int) {
        var record = record
        record.service = service
        record.meta.merge(tags) { own, _ in own }
        if record.metrics["_dd.top_level"] != nil { record.metrics["_sampling_priority_v1"] = Double(priority) }
        if !pending.append(record) { log.dropped("Datadog agent \(agent.absoluteString)", DatadogTraceSender.Full()) }
    }

    /// A random span or trace id, 1 to 2^63 - 1 (as dd-trace-go's).
    private static func newID() -> UInt64 { UInt64.random(in: 1...UInt64(Int64.max)) }
}
