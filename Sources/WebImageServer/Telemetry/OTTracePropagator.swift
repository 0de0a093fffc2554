import Tracing

/// `ottrace`: OpenTracing's `ot-tracer-traceid` (16 or 32 lower-case hex digits), `ot-tracer-spanid` and
/// `ot-tracer-sampled` (`true`, `false`, `1`, `0`), as OpenTelemetry Go's OT propagator reads and writes them: written
/// with the trace id's low 64 bits (OpenTracing's ids are 64-bit), `true` or `false`, and the baggage's members as
/// `ot-baggage-{key}` headers (a value with a control character left out). The `ot-baggage-*` headers of a request are
/// not read: the server's header readers look headers up by name and cannot list them.
struct OTTracePropagator: TracePropagator {
    func extract(_ header: (String) -> String?, into context: inout ServiceContext) {
        guard
            let caller = Self.caller(
                traceID: header("ot-tracer-traceid") ?? "", spanID: header("ot-tracer-spanid") ?? "",
                sampled: header("ot-tracer-sampled") ?? "")
        else { return }
        context.otlpSpan = caller
    }

    func inject(_ context: ServiceContext, _ header: (String, String) -> Void) {
        guard let span = context.otlpSpan else { return }
        header("ot-tracer-traceid", OTLPSpanContext.hex(Array(span.traceID.suffix(8))))
        header("ot-tracer-spanid", OTLPSpanContext.hex(span.spanID))
        header("ot-tracer-sampled", span.sampled ? "true" : "false")
        for member in context.traceBaggage?.members ?? []
        where !member.value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            header("ot-baggage-\(member.key)", member.value)
        }
    }

    /// The caller of the headers (each empty when absent); `nil` when they name none or do not parse.
    static func caller(traceID: String, spanID: String, sampled: String) -> OTLPSpanContext? {
        let isSampled: Bool
        switch sampled.lowercased() {
        case "1", "true": isSampled = true
        case "0", "false", "": isSampled = false
        default: return nil
        }
        guard !traceID.isEmpty, !spanID.isEmpty, let trace = B3Propagator.traceID(traceID.utf8),
            let span = B3Propagator.id(spanID.utf8)
        else { return nil }
        return OTLPSpanContext(traceID: trace, spanID: span, sampled: isSampled, traceState: nil)
    }
}
