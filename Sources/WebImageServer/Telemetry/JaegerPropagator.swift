import Tracing

/// `jaeger`: Jaeger's `uber-trace-id: {trace id}:{span id}:{parent span id}:{flags}`, as OpenTelemetry Go's Jaeger
/// propagator reads and writes it: ids of up to 32 and 16 lower-case hex digits, padded with zeros, the parent
/// ignored, the flags hexadecimal (bit 1 sampled, bit 2 debug). Written with the parent `0`, and the flags `1`, `0`,
/// or `3` within a debug caller's trace.
struct JaegerPropagator: TracePropagator {
    /// The context's key of a caller's debug flag.
    enum DebugKey: ServiceContextKey {
        typealias Value = Bool
    }

    func extract(_ header: (String) -> String?, into context: inout ServiceContext) {
        guard let text = header("uber-trace-id"), !text.isEmpty, let (caller, debug) = Self.caller(text) else {
            return
        }
        context.otlpSpan = caller
        if debug { context[DebugKey.self] = true }
    }

    func inject(_ context: ServiceContext, _ header: (String, String) -> Void) {
        guard let span = context.otlpSpan else { return }
        let flags = context[DebugKey.self] == true ? "3" : span.sampled ? "1" : "0"
        header(
            "uber-trace-id",
            "\(OTLPSpanContext.hex(span.traceID)):\(OTLPSpanContext.hex(span.spanID)):0:\(flags)")
    }

    /// The caller `text` names and whether it is debug; `nil` when it names none or does not parse.
    static func caller(_ text: String) -> (OTLPSpanContext, Bool)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 4, let traceID = padded(parts[0], bytes: 16), let spanID = padded(parts[1], bytes: 8)
        else { return nil }
        var sampled = false
        var debug = false
        if !parts[3].isEmpty {
            guard let flags = Int64(parts[3], radix: 16) else { return nil }
            sampled = flags & 1 == 1
            debug = sampled && flags & 2 == 2
        }
        return (OTLPSpanContext(traceID: traceID, spanID: spanID, sampled: sampled, traceState: nil), debug)
    }

    /// An id of at most `bytes` × 2 lower-case hex digits, padded with zeros in front; `nil` when empty, too long, not
    /// hexadecimal, or all zeros.
    private static func padded(_ digits: Substring, bytes: Int) -> [UInt8]? {
        guard !digits.isEmpty, digits.utf8.count <= bytes * 2 else { return nil }
        let text = String(repeating: "0", count: bytes * 2 - digits.utf8.count) + digits
        guard let id = OTLPSpanContext.bytes(text, count: bytes), id.contains(where: { $0 != 0 }) else { return nil }
        return id
    }
}
