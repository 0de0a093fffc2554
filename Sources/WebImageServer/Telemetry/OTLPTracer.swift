import Foundation
import Instrumentation
import Logging
import ServiceLifecycle
import Tracing

/// A swift-distributed-tracing tracer that exports spans over OTLP, as imgproxy's OpenTelemetry tracer does: trace
/// ids from its ``TraceIDGenerator`` (imgproxy's `IMGPROXY_OPEN_TELEMETRY_TRACE_ID_GENERATOR`), new traces sampled
/// by its ``TraceSampler`` (`OTEL_TRACES_SAMPLER`), the spans under the instrumentation scope `imgproxy` (as
/// imgproxy's `otel.Tracer("imgproxy")`), batched (`OTEL_BSP_*`) and sent through an ``OTLPTransport``.
///
/// Bootstrap it in `InstrumentationSystem` and run it as a service beside the server: it exports on schedule and
/// what is left on graceful shutdown. It continues the trace a request's headers carry in the formats of its
/// ``TracePropagators`` (`OTEL_PROPAGATORS`: W3C `traceparent` and `baggage` by default), and writes the current span
/// in each of them into the requests it is asked to inject into.
package final class OTLPTracer: Tracer, Service {
    /// The instrumentation scope of the spans, imgproxy's.
    package static let scope = "imgproxy"

    private let generator: TraceIDGenerator
    private let sampler: TraceSampler
    private let batcher: OTLPBatcher
    private let propagators: TracePropagators

    /// A tracer exporting through `transport` from a resource of `resource` (`service.name` and the like), reading
    /// and writing trace headers with `propagators`.
    package init(
        transport: any OTLPTransport, resource: [String: String], generator: TraceIDGenerator,
        sampler: TraceSampler, limits: OTLPBatchLimits, propagators: TracePropagators = .default, logger: Logger
    ) {
        self.generator = generator
        self.sampler = sampler
        self.propagators = propagators
        batcher = OTLPBatcher(
            .traces, limits: limits, transport: transport, resource: .resource(resource), scope: Self.scope,
            logger: logger)
    }

    /// Starts a span, a child of the context's span (of this process or a caller's), else a new trace's root.
    package func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> ServiceContext, ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> OTLPSpan {
        let parent = context()
        let caller = parent.otlpSpan
        let traceID = caller?.traceID ?? generator.traceID()
        let ids = OTLPSpanContext(
            traceID: traceID, spanID: generator.spanID(), sampled: sampler.sampled(traceID: traceID, parent: caller),
            traceState: caller?.traceState)
        let batcher = batcher
        return OTLPSpan(
            name: operationName, context: parent, ids: ids, parentID: caller?.spanID, kind: kind,
            start: instant().nanosecondsSinceEpoch
        ) { span in batcher.add(span) }
    }

    /// Nothing: spans are exported on schedule by ``run()``.
    package func forceFlush() {}

    /// Reads a caller's trace (and baggage) from the headers, with each propagator in turn.
    package func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract
    ) where Extract.Carrier == Carrier {
        propagators.extract({ extractor.extract(key: $0, from: carrier) }, into: &context)
    }

    /// Writes the current span (and the caller's baggage) into the headers, with each propagator in turn.
    package func inject<Carrier, Inject: Injector>(
        _ context: ServiceContext, into carrier: inout Carrier, using injector: Inject
    ) where Inject.Carrier == Carrier {
        propagators.inject(context) { name, value in injector.inject(value, forKey: name, into: &carrier) }
    }

    /// Exports the spans on schedule until graceful shutdown, then what is left.
    package func run() async throws { try await batcher.run() }
}
