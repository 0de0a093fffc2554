import Foundation
import Tracing

/// The trace context of the current span, kept in the task's `ServiceContext`: for a trace continued from a
/// request's headers (``TracePropagators``), the caller's span. Reads and writes the W3C `traceparent` header
/// (version `00`) and passes `tracestate` on as it came.
struct OTLPSpanContext: Sendable, Hashable {
    /// The trace id, 16 bytes.
    let traceID: [UInt8]
    /// The span id, 8 bytes.
    let spanID: [UInt8]
    /// Whether the trace is sampled (the `sampled` trace flag).
    let sampled: Bool
    /// The caller's `tracestate`, passed on as it is.
    let traceState: String?

    /// The context's key.
    enum Key: ServiceContextKey {
        typealias Value = OTLPSpanContext
    }

    /// The `traceparent` header of this span.
    var traceparent: String { "00-\(Self.hex(traceID))-\(Self.hex(spanID))-\(sampled ? "01" : "00")" }

    /// The context a `traceparent` header names; `nil` unless it is `VERSION-TRACE-SPAN-FLAGS` in lower-case
    /// hexadecimal with ids not all zeros and a version other than `ff` (a later version may carry more fields).
    init?(traceparent: String, traceState: String?) {
        let parts = traceparent.trimmingCharacters(in: CharacterSet(charactersIn: " \t")).split(
            separator: "-", omittingEmptySubsequences: false)
        guard parts.count >= 4, parts[0].count == 2, parts[0] != "ff", parts[0] != "00" || parts.count == 4,
            let trace = Self.bytes(parts[1], count: 16), let span = Self.bytes(parts[2], count: 8),
            let flags = Self.bytes(parts[3], count: 1), Self.bytes(parts[0], count: 1) != nil,
            trace.contains(where: { $0 != 0 }), span.contains(where: { $0 != 0 })
        else { return nil }
        self.init(traceID: trace, spanID: span, sampled: flags[0] & 1 == 1, traceState: traceState)
    }

    init(traceID: [UInt8], spanID: [UInt8], sampled: Bool, traceState: String?) {
        self.traceID = traceID
        self.spanID = spanID
        self.sampled = sampled
        self.traceState = traceState
    }

    /// `bytes` in lower-case hexadecimal.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
    }

    /// The `count` bytes `text` spells in lower-case hexadecimal, or `nil` (upper-case digits included, as
    /// OpenTelemetry's ids are read).
    static func bytes<Text: StringProtocol>(_ text: Text, count: Int) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count == count * 2 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}

extension ServiceContext {
    /// The current OpenTelemetry span, when there is one.
    var otlpSpan: OTLPSpanContext? {
        get { self[OTLPSpanContext.Key.self] }
        set { self[OTLPSpanContext.Key.self] = newValue }
    }
}
