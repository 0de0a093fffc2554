import Foundation
import WebImage

extension ImageResponder {
    /// The `Cache-Control` of an image or a 304 whose source answered with `origin`, as imgproxy's response writer
    /// picks it: `max-age` from the `expires` option (at most the TTL) when that is above 0; else, with
    /// ``HTTPConfiguration/passesCacheControl``, the origin's `Cache-Control` as it sent it, else its `Expires` (an
    /// IMF-fixdate, as Go's `http.TimeFormat`) as a `max-age` when still in the future; else the TTL; `no-cache` when
    /// the TTL is 0. Without passthrough it is the `max-age` ``maxAge(expires:now:)`` gives, as before.
    func cacheControl(expires: Int?, origin: ImageValidators, now: Int) -> String {
        guard configuration.http.passesCacheControl else {
            return "max-age=\(maxAge(expires: expires, now: now)), public"
        }
        if let expires {
            let age = min(configuration.ttl, max(0, expires - now))
            if age > 0 { return "max-age=\(age), public" }
        }
        if let value = origin.cacheControl, !value.isEmpty { return value }
        if let value = origin.expires, let date = Self.goHTTPDate(value) {
            let age = Int(max(0, min(date.timeIntervalSince1970 - Double(now), Double(Int32.max))))
            if age > 0 { return "max-age=\(age), public" }
        }
        return configuration.ttl > 0 ? "max-age=\(configuration.ttl), public" : "no-cache"
    }

    /// Whether `Cache-Control` depends on the result's origin: passed through, so it is not kept with the path
    /// (``AnsweredPaths``) but made from the result on each answer.
    var cacheControlFollowsOrigin: Bool { configuration.http.passesCacheControl }

    /// `text` as Go's `time.Parse(http.TimeFormat, …)` reads it: only the IMF-fixdate form
    /// (`Sun, 06 Nov 1994 08:49:37 GMT`).
    static func goHTTPDate(_ text: String) -> Date? {
        guard text.utf8.count == 29, text.hasSuffix(" GMT"), text.split(separator: " ").count == 6 else { return nil }
        return HTTPDate.date(text)
    }
}
