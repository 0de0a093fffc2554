import Foundation
import WebImage

/// The `Date` header's text, made at most once a second.
final class ResponseDates: Sendable {
    private let cached = Locked<(second: Int, text: String)>((-1, ""))

    /// The current time as IMF-fixdate.
    func now() -> String {
        let date = Date()
        let second = Int(date.timeIntervalSince1970)
        return cached.withLock { cached in
            if cached.second != second { cached = (second, HTTPDate.string(date)) }
            return cached.text
        }
    }
}
