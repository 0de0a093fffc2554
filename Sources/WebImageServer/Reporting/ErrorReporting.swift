import Foundation

/// One error-reporting vendor: turns an ``ErrorReport`` into the HTTP request its API takes. Sending is
/// ``ErrorReporter``'s: vendors only say what to send, so a payload is checked without a network.
protocol ErrorReporting: Sendable {
    /// The vendor's name, the `reporter` label of `webimage_error_reports_total` (`sentry`, `bugsnag`, ...).
    var name: String { get }
    /// The request that reports `report`.
    func request(for report: ErrorReport) -> VendorRequest
}

/// A request to a vendor's API: always a `POST` of a body built by the vendor's type.
struct VendorRequest: Sendable {
    let url: URL
    /// The headers, `Content-Type` included.
    let headers: [(String, String)]
    let body: Data
}

extension ErrorReporting {
    /// `object` as JSON, keys sorted (so payloads compare in tests); an object JSONSerialization cannot write (never
    /// one of ours: strings, numbers, booleans, arrays and dictionaries of them) becomes `{}`.
    static func json(_ object: [String: Any]) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data("{}".utf8)
    }

    /// The notifier every payload names.
    static var notifierName: String { "webimage" }
    /// Where the notifier is documented.
    static var notifierURL: String { "https://github.com/webimage/swift-web-image" }
}
