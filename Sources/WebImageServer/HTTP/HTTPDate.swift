import Foundation

/// HTTP dates (RFC 9110, 5.6.7): written as IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) for `Last-Modified`; read
/// in that form and the two obsolete ones a recipient must accept (`Sunday, 06-Nov-94 08:49:37 GMT`,
/// `Sun Nov  6 08:49:37 1994`) from `If-Modified-Since` and an origin's `Last-Modified`.
///
/// By hand rather than through `DateFormatter`: making one (ICU underneath) took half of a disk-cache hit's time
/// (issue 29), and the format is fixed.
enum HTTPDate {
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `date` as IMF-fixdate, to the second (rounded down), within 1970 to 9999.
    static func string(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        let seconds = interval.isFinite ? Int64(min(max(interval.rounded(.down), 0), 253_402_300_799)) : 0
        let (dayNumber, second) = seconds.quotientAndRemainder(dividingBy: 86_400)
        let (year, month, dayOfMonth) = civil(fromDays: dayNumber)
        let weekday = Int((dayNumber + 4) % 7)  // 1970-01-01 was a Thursday
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[weekday]), \(two(dayOfMonth)) \(months[Int(month) - 1]) \(year) "
            + "\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60)) GMT"
    }

    /// The date `text` names in any of the three forms, or `nil`.
    static func date(_ text: String) -> Date? {
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let fields: (day: Int?, month: String, year: Int?, time: String)
        switch words.count {
        case 6 where words[5] == "GMT" && words[0].hasSuffix(","):  // IMF-fixdate
            fields = (Int(words[1]), words[2], Int(words[3]), words[4])
        case 4 where words[3] == "GMT" && words[0].hasSuffix(","):  // RFC 850: two-digit years, 1970 to 2069
            let parts = words[1].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3, parts[2].count == 2, let short = Int(parts[2]) else { return nil }
            fields = (Int(parts[0]), parts[1], short < 70 ? 2000 + short : 1900 + short, words[2])
        case 5:  // asctime
            fields = (Int(words[2]), words[1], Int(words[4]), words[3])
        default:
            return nil
        }
        let clock = fields.time.split(separator: ":", omittingEmptySubsequences: false).compactMap { Int($0) }
        guard let day = fields.day, let year = fields.year, (1...31).contains(day), (1...9999).contains(year),
            let month = months.firstIndex(of: fields.month), clock.count == 3, (0..<24).contains(clock[0]),
            (0..<60).contains(clock[1]), (0...60).contains(clock[2])
        else { return nil }
        let dayNumber = days(fromCivil: Int64(year), Int64(month + 1), Int64(day))
        let seconds = dayNumber * 86_400 + Int64(clock[0] * 3600 + clock[1] * 60 + clock[2])
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// Year, month and day of the day `days` after 1970-01-01 (proleptic Gregorian; Howard Hinnant's algorithm).
    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The days from 1970-01-01 to a date (the inverse of ``civil(fromDays:)``).
    private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
