/// imgproxy's integer helpers (`imath`), with every double-to-integer conversion clamped so it cannot trap.
enum PixelMath {
    /// The largest magnitude a computed size or offset may take: far above any real image, and small enough that
    /// sums of a few of them cannot overflow `Int`.
    static let limit = Double(1 << 62)

    /// `value` rounded half away from zero, clamped to ±``limit``; NaN is 0.
    static func round(_ value: Double) -> Int { clampedInt(value.rounded(.toNearestOrAwayFromZero)) }

    /// `value` rounded half to even, clamped to ±``limit``; NaN is 0.
    static func roundToEven(_ value: Double) -> Int { clampedInt(value.rounded(.toNearestOrEven)) }

    /// `a * scale` rounded; 0 stays 0.
    static func scale(_ a: Int, _ scale: Double) -> Int { a == 0 ? 0 : round(Double(a) * scale) }

    /// `a * scale` rounded half to even; 0 stays 0.
    static func scaleToEven(_ a: Int, _ scale: Double) -> Int { a == 0 ? 0 : roundToEven(Double(a) * scale) }

    /// `a / shrink` rounded; 0 stays 0.
    static func shrink(_ a: Int, _ shrink: Double) -> Int { a == 0 ? 0 : round(Double(a) / shrink) }

    /// `a / shrink` rounded half to even; 0 stays 0.
    static func shrinkToEven(_ a: Int, _ shrink: Double) -> Int { a == 0 ? 0 : roundToEven(Double(a) / shrink) }

    /// The smaller of the two, ignoring zeros.
    static func minNonZero(_ a: Int, _ b: Int) -> Int { a == 0 ? b : b == 0 ? a : min(a, b) }

    private static func clampedInt(_ value: Double) -> Int {
        guard !value.isNaN else { return 0 }
        return Int(max(-limit, min(limit, value)))
    }
}
