import Tracing

/// `tracecontext`: W3C Trace Context. Reads a caller's `traceparent` (with its `tracestate`, passed on as it came;
/// ``OTLPSpanContext/init(traceparent:traceState:)`` says which headers are taken) and writes the current span's.
struct TraceContextPropagator: TracePropagator {
    func extract(_ header: (String) -> String?, into context: inout ServiceContext) {
        guard let traceparent = header("traceparent"),
            let caller = OTLPSpanContext(traceparent: traceparent, traceState: header("tracestate"))
        else { return }
        context.otlpSpan = caller
    }

    func inject(_ context: ServiceContext, _ header: (String, String) -> Void) {
        guard let span = context.otlpSpan else { return }
        if let state = span.traceState, !state.isEmpty { header("tracestate", state) }
        header("traceparent", span.traceparent)
    }
}
