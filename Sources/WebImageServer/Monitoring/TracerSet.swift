import Instrumentation
import Tracing

/// Several tracers as one, since swift-distributed-tracing bootstraps one per process: Datadog's, New Relic's and
/// OpenTelemetry's, in any combination, as imgproxy runs its monitors side by side. A span is started in each tracer
/// in turn, each under the previous one's context, so the set's context carries every tracer's ids; a caller's trace
/// is read by every tracer, and every tracer writes its headers.
///
/// Which headers go to origins is decided apart, per tracer: give the server an instrument of those tracers alone
/// (``ImageServerConfiguration/originTraceInstrument``).
public struct TracerSet: Tracer {
    /// The tracers, in the order their spans start (and their headers are written: a later tracer's header of the same
    /// name wins).
    public let tracers: [any Tracer]

    /// The tracers as one.
    public init(_ tracers: [any Tracer]) {
        self.tracers = tracers
    }

    /// Starts the span in every tracer, each under the previous one's context.
    public func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> ServiceContext, ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> SpanSet {
        let start = instant()
        var current = context()
        var spans: [any Tracing.Span] = []
        spans.reserveCapacity(tracers.count)
        for tracer in tracers {
            let span = tracer.startSpan(
                operationName, context: current, ofKind: kind, at: start, function: function, file: fileID, line: line)
            current = span.context
            spans.append(span)
        }
        return SpanSet(spans, context: current)
    }

    /// Makes the tracers the process's, in swift-distributed-tracing's `InstrumentationSystem`: a single tracer alone
    /// (its spans then cost nothing more), several as this set; nothing without one. Call once per process, before
    /// the server is made.
    public func bootstrap() {
        switch tracers.count {
        case 0: return
        case 1: InstrumentationSystem.bootstrap(tracers[0])
        default: InstrumentationSystem.bootstrap(self)
        }
    }

    /// Flushes every tracer (deprecated, as swift-distributed-tracing's requirement is).
    @available(*, deprecated)
    public func forceFlush() {
        for tracer in tracers { tracer.forceFlush() }
    }

    /// Reads a caller's trace with every tracer, each from its own headers.
    public func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract
    ) where Extract.Carrier == Carrier {
        for tracer in tracers { tracer.extract(carrier, into: &context, using: extractor) }
    }

    /// Writes every tracer's headers.
    public func inject<Carrier, Inject: Injector>(
        _ context: ServiceContext, into carrier: inout Carrier, using injector: Inject
    ) where Inject.Carrier == Carrier {
        for tracer in tracers { tracer.inject(context, into: &carrier, using: injector) }
    }
}
