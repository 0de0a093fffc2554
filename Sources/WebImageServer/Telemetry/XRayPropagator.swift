import Foundation
import Tracing

/// `xray`: AWS X-Ray's `X-Amzn-Trace-Id: Root=1-{8 hex digits}-{24 hex digits};Parent={span id};Sampled={0|1}`, as
/// OpenTelemetry Go's X-Ray propagator reads and writes it: the parts in any order, separated by `;`, each known by
/// its name's start (others, such as an ALB's `Self=`, skipped); sampled only with `Sampled=1`.
struct XRayPropagator: TracePropagator {
    func extract(_ header: (String) -> String?, into context: inout ServiceContext) {
        guard let text = header("x-amzn-trace-id"), !text.isEmpty, let caller = Self.caller(text) else { return }
        context.otlpSpan = caller
    }

    func inject(_ context: ServiceContext, _ header: (String, String) -> Void) {
        guard let span = context.otlpSpan else { return }
        let trace = OTLPSpanContext.hex(span.traceID)
        let root = "1-\(trace.prefix(8))-\(trace.dropFirst(8))"
        header(
            "x-amzn-trace-id",
            "Root=\(root);Parent=\(OTLPSpanContext.hex(span.spanID));Sampled=\(span.sampled ? "1" : "0")")
    }

    /// The caller `text` names; `nil` when it names none or a part does not parse.
    static func caller(_ text: String) -> OTLPSpanContext? {
        var traceID: [UInt8]?
        var spanID: [UInt8]?
        var sampled = false
        let parts = text.split(separator: ";", omittingEmptySubsequences: false)
        for (index, raw) in parts.enumerated() {
            // As Go's: only the last part is trimmed.
            let part = index == parts.count - 1 ? Substring(raw.trimmingCharacters(in: .whitespaces)) : raw
            if index == parts.count - 1, raw.isEmpty, parts.count > 1 { break }
            guard let equals = part.firstIndex(of: "=") else { return nil }
            let value = part[part.index(after: equals)...]
            if part.hasPrefix("Root") {
                guard let id = Self.root(value) else { return nil }
                traceID = id
            } else if part.hasPrefix("Parent") {
                guard let id = OTLPSpanContext.bytes(value, count: 8) else { return nil }
                spanID = id
            } else if part.hasPrefix("Sampled") {
                sampled = value == "1"
            }
        }
        guard let traceID, let spanID, spanID.contains(where: { $0 != 0 }) else { return nil }
        return OTLPSpanContext(traceID: traceID, spanID: spanID, sampled: sampled, traceState: nil)
    }

    /// The trace id of a `Root` value, `1-{8 hex digits}-{24 hex digits}`; `nil` otherwise or for all zeros.
    private static func root(_ value: Substring) -> [UInt8]? {
        let bytes = Array(value.utf8)
        guard bytes.count == 35, bytes[0] == UInt8(ascii: "1"), bytes[1] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "-"),
            let id = OTLPSpanContext.bytes(String(decoding: bytes[2..<10] + bytes[11...], as: UTF8.self), count: 16),
            id.contains(where: { $0 != 0 })
        else { return nil }
        return id
    }
}
