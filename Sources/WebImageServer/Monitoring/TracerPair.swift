import Instrumentation
import Tracing

/// Two tracers as one, since swift-distributed-tracing bootstraps one per process: Datadog's and New Relic's
/// together, as imgproxy runs its monitors side by side. A span is started in `first`, then in `second` under the
/// first's context, so the pair's context carries both tracers' ids; a caller's trace is read by both, and both
/// write their headers.
public struct TracerPair<First: Tracer, Second: Tracer>: Tracer {
    /// The tracer whose span starts first.
    public let first: First
    /// The tracer whose span starts under the first's.
    public let second: Second

    /// Both tracers as one.
    public init(_ first: First, _ second: Second) {
        self.first = first
        self.second = second
    }

    /// Starts the span in both tracers.
    public func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> ServiceContext, ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> SpanPair<First.Span, Second.Span> {
        let start = instant()
        let one = first.startSpan(
            operationName, context: context(), ofKind: kind, at: start, function: function, file: fileID, line: line)
        let other = second.startSpan(
            operationName, context: one.context, ofKind: kind, at: start, function: function, file: fileID, line: line)
        return SpanPair(one, other)
    }

    /// Makes the pair the process's tracer, in swift-distributed-tracing's `InstrumentationSystem`: call once per
    /// process, before the server is made.
    public func bootstrap() { InstrumentationSystem.bootstrap(self) }

    /// Flushes both.
    public func forceFlush() {
        first.forceFlush()
        second.forceFlush()
    }

    /// Reads a caller's trace with both.
    public func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract
    ) where Extract.Carrier == Carrier {
        first.extract(carrier, into: &context, using: extractor)
        second.extract(carrier, into: &context, using: extractor)
    }

    /// Writes both tracers' headers.
    public func inject<Carrier, Inject: Injector>(
        _ context: ServiceContext, into carrier: inout Carrier, using injector: Inject
    ) where Inject.Carrier == Carrier {
        first.inject(context, into: &carrier, using: injector)
        second.inject(context, into: &carrier, using: injector)
    }
}
