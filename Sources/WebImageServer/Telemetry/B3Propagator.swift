import Tracing

/// `b3` and `b3multi`: Zipkin's B3, as OpenTelemetry Go's B3 propagator reads and writes it. Both read the single
/// header `b3: {trace id}-{span id}-{sampling}-{parent span id}` (a 64-bit trace id padded to 128 bits; the sampling
/// state `1`, `0`, `d` for debug, or none, deferring the decision), and when it is absent or does not parse, the
/// `x-b3-traceid`, `x-b3-spanid`, `x-b3-parentspanid`, `x-b3-sampled` (`1`, `0`, `true`, `false`) and `x-b3-flags`
/// (`1`: debug) headers. `b3` writes the single header, `b3multi` the `x-b3-*` ones (no parent span id, as Go's).
/// A debug or deferred caller stays so in the headers the server writes within its trace.
struct B3Propagator: TracePropagator {
    /// What B3 says of the sampling besides the sampled flag.
    enum Sampling: Sendable, Hashable {
        /// Debug: sampled, and written `d` (`x-b3-flags: 1`).
        case debug
        /// No decision: not sampled here, and written without a sampling state.
        case deferred
    }

    /// The context's key of the caller's ``Sampling``.
    enum Key: ServiceContextKey {
        typealias Value = Sampling
    }

    /// Whether the `x-b3-*` headers are written (`b3multi`) rather than `b3`.
    let multipleHeaders: Bool

    func extract(_ header: (String) -> String?, into context: inout ServiceContext) {
        var found = header("b3").flatMap { $0.isEmpty ? nil : Self.single($0) }
        if found == nil {
            found = Self.multiple(
                traceID: header("x-b3-traceid") ?? "", spanID: header("x-b3-spanid") ?? "",
                parentID: header("x-b3-parentspanid") ?? "", sampled: header("x-b3-sampled") ?? "",
                flags: header("x-b3-flags") ?? "")
        }
        guard let (caller, sampling) = found else { return }
        context.otlpSpan = caller
        context[Key.self] = sampling
    }

    func inject(_ context: ServiceContext, _ header: (String, String) -> Void) {
        guard let span = context.otlpSpan else { return }
        let sampling = context[Key.self]
        let (traceID, spanID) = (OTLPSpanContext.hex(span.traceID), OTLPSpanContext.hex(span.spanID))
        if multipleHeaders {
            header("x-b3-traceid", traceID)
            header("x-b3-spanid", spanID)
            switch sampling {
            case .debug: header("x-b3-flags", "1")
            case .deferred: break
            case nil: header("x-b3-sampled", span.sampled ? "1" : "0")
            }
        } else {
            var parts = [traceID, spanID]
            switch sampling {
            case .debug: parts.append("d")
            case .deferred: break
            case nil: parts.append(span.sampled ? "1" : "0")
            }
            header("b3", parts.joined(separator: "-"))
        }
    }

    /// The caller of a single `b3` header, `nil` when it names none or does not parse.
    static func single(_ text: String) -> (OTLPSpanContext, Sampling?)? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 33 else { return nil }
        let traceEnd: Int
        if bytes[16] == UInt8(ascii: "-") {
            traceEnd = 16
        } else if bytes[32] == UInt8(ascii: "-") {
            traceEnd = 32
        } else {
            return nil
        }
        guard let traceID = traceID(bytes[0..<traceEnd]) else { return nil }
        var position = traceEnd + 1
        guard bytes.count >= position + 16, let spanID = id(bytes[position..<position + 16]) else { return nil }
        position += 16
        var state = ""
        if bytes.count > position {
            guard bytes.count > position + 1 else { return nil }
            position += 1
            switch bytes.count - position {
            case 1: state = String(decoding: bytes[position...], as: UTF8.self)
            case 18:
                state = String(decoding: bytes[position..<position + 1], as: UTF8.self)
                guard bytes[position + 1] == UInt8(ascii: "-"), id(bytes[(position + 2)...]) != nil else { return nil }
            default: return nil
            }
        }
        let sampled: Bool
        let sampling: Sampling?
        switch state {
        case "": (sampled, sampling) = (false, .deferred)
        case "d": (sampled, sampling) = (true, .debug)
        case "1": (sampled, sampling) = (true, nil)
        case "0": (sampled, sampling) = (false, nil)
        default: return nil
        }
        return (OTLPSpanContext(traceID: traceID, spanID: spanID, sampled: sampled, traceState: nil), sampling)
    }

    /// The caller of the `x-b3-*` headers (each empty when absent), `nil` when they name none or do not parse.
    static func multiple(
        traceID: String, spanID: String, parentID: String, sampled: String, flags: String
    ) -> (OTLPSpanContext, Sampling?)? {
        var isSampled: Bool
        var sampling: Sampling?
        switch sampled.lowercased() {
        case "0", "false": (isSampled, sampling) = (false, nil)
        case "1", "true": (isSampled, sampling) = (true, nil)
        case "": (isSampled, sampling) = (false, .deferred)
        default: return nil
        }
        if flags == "1" { (isSampled, sampling) = (true, .debug) }
        guard !traceID.isEmpty, !spanID.isEmpty, let trace = Self.traceID(traceID.utf8[...]),
            let span = id(spanID.utf8[...])
        else { return nil }
        if !parentID.isEmpty, id(parentID.utf8[...]) == nil { return nil }
        return (OTLPSpanContext(traceID: trace, spanID: span, sampled: isSampled, traceState: nil), sampling)
    }

    /// A trace id of 32 lower-case hex digits, or of 16 (padded with zeros to 16 bytes); `nil` for all zeros.
    static func traceID<Digits: Collection<UInt8>>(_ digits: Digits) -> [UInt8]? {
        let text = String(decoding: digits, as: UTF8.self)
        let padded = text.utf8.count == 16 ? String(repeating: "0", count: 16) + text : text
        guard let bytes = OTLPSpanContext.bytes(padded, count: 16), bytes.contains(where: { $0 != 0 }) else {
            return nil
        }
        return bytes
    }

    /// A span id of 16 lower-case hex digits; `nil` for all zeros.
    static func id<Digits: Collection<UInt8>>(_ digits: Digits) -> [UInt8]? {
        guard let bytes = OTLPSpanContext.bytes(String(decoding: digits, as: UTF8.self), count: 8),
            bytes.contains(where: { $0 != 0 })
        else { return nil }
        return bytes
    }
}
