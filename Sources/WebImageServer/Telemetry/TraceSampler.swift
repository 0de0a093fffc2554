/// Which new spans are recorded and exported, as `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG` say:
/// `always_on`, `always_off`, `traceidratio` (a share of the traces, by their id), or the same `parentbased_`, which
/// follows the caller's sampled flag when there is a caller (the default: `parentbased_always_on`).
public struct TraceSampler: Sendable, Hashable {
    private let parentBased: Bool
    /// The share of root traces kept, 0 to 1.
    private let ratio: Double

    /// The sampler `name` (`OTEL_TRACES_SAMPLER`) with `argument` (`OTEL_TRACES_SAMPLER_ARG`, the ratio of the
    /// `traceidratio` ones, 1 by default); `nil` for an unknown name or a ratio that is no number from 0 to 1.
    public init?(name: String, argument: String?) {
        let ratio: Double
        if let argument {
            guard let value = Double(argument), value >= 0, value <= 1 else { return nil }
            ratio = value
        } else {
            ratio = 1
        }
        switch name.lowercased() {
        case "always_on": self.init(parentBased: false, ratio: 1)
        case "always_off": self.init(parentBased: false, ratio: 0)
        case "traceidratio": self.init(parentBased: false, ratio: ratio)
        case "parentbased_always_on": self.init(parentBased: true, ratio: 1)
        case "parentbased_always_off": self.init(parentBased: true, ratio: 0)
        case "parentbased_traceidratio": self.init(parentBased: true, ratio: ratio)
        default: return nil
        }
    }

    private init(parentBased: Bool, ratio: Double) {
        self.parentBased = parentBased
        self.ratio = ratio
    }

    /// OpenTelemetry's default, `parentbased_always_on`.
    public static let `default` = TraceSampler(parentBased: true, ratio: 1)

    /// Whether a span of trace `traceID` is sampled, its parent's context `parent` (`nil` for a root).
    func sampled(traceID: [UInt8], parent: OTLPSpanContext?) -> Bool {
        if parentBased, let parent { return parent.sampled }
        if ratio >= 1 { return true }
        if ratio <= 0 { return false }
        // As OpenTelemetry's TraceIdRatioBased: the low 8 bytes of the id, as a number, under ratio × 2^63.
        let low = traceID.suffix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } >> 1
        return Double(low) < ratio * Double(UInt64(1) << 63)
    }
}
