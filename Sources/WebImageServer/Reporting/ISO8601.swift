import Foundation

/// UTC timestamps with milliseconds, `2026-11-26T07:13:50.123Z`, as the vendors' APIs take them.
enum ISO8601 {
    /// `date` in UTC with milliseconds.
    static func format(_ date: Date) -> String {
        date.formatted(
            Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: TimeZone(secondsFromGMT: 0) ?? .current)
        )
    }
}
