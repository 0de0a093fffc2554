/// How the monitoring payloads write a number: an integer without a fraction (`4`), else the shortest decimal that
/// reads back the same (`37.5`); a value that is not finite is written `0`.
enum MetricNumber {
    static func text(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
