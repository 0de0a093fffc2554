import Foundation

/// Log timestamps, the calendar part made once per second: swift-log's local `2026-11-25T21:35:00+0000` for pretty
/// lines, RFC 3339 UTC with milliseconds (`2026-11-25T21:35:00.123Z`) for structured and JSON ones.
///
/// `localtime_r`, never `localtime`: glibc's `localtime` looks at `/etc/localtime` again (a `stat`) on every call.
struct LogClock {
    private var localSecond = Int.min
    private var localText = ""
    private var utcSecond = Int.min
    private var utcText = ""

    /// `date` in local time, to the second, as swift-log's `StreamLogHandler` writes it.
    mutating func local(_ date: Date) -> String {
        let second = Self.second(date)
        if second != localSecond {
            localSecond = second
            localText = Self.format(second, "%Y-%m-%dT%H:%M:%S%z", local: true)
        }
        return localText
    }

    /// `date` in UTC with milliseconds.
    mutating func utc(_ date: Date) -> String {
        let second = Self.second(date)
        if second != utcSecond {
            utcSecond = second
            utcText = Self.format(second, "%Y-%m-%dT%H:%M:%S", local: false)
        }
        let milliseconds = min(max(Int((date.timeIntervalSince1970 - Double(second)) * 1000), 0), 999)
        let digits = String(milliseconds)
        return utcText + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }

    /// `date`'s whole second since 1970, bounded.
    static func second(_ date: Date) -> Int {
        let interval = date.timeIntervalSince1970.rounded(.down)
        return interval.isFinite ? Int(max(min(interval, 1e12), 0)) : 0
    }

    /// `second` (since 1970) as `strftime` writes `pattern`, in local time or UTC.
    static func format(_ second: Int, _ pattern: String, local: Bool) -> String {
        var time = time_t(second)
        var parts = tm()
        _ = local ? localtime_r(&time, &parts) : gmtime_r(&time, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, pattern, &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
