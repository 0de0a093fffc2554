import Foundation

/// What a request's headers ask of the response: WebP, AVIF or JPEG XL, JSON errors, conditional answers.
struct Negotiation: Sendable {
    /// The `Accept` header, lowercased.
    let accept: String

    /// Whether `Accept` lists `image/webp` (with a non-zero quality).
    var acceptsWebP: Bool { lists("image/webp") }

    /// Whether `Accept` lists `image/avif` (with a non-zero quality).
    var acceptsAVIF: Bool { lists("image/avif") }

    /// Whether `Accept` lists `image/jxl` (with a non-zero quality).
    var acceptsJXL: Bool { lists("image/jxl") }

    /// Whether errors should be JSON: `Accept` lists `application/json`.
    var wantsJSON: Bool { lists("application/json") }

    private func lists(_ type: String) -> Bool {
        accept.split(separator: ",").contains { item in
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.first == type else { return false }
            return !parts.dropFirst().contains {
                $0.replacingOccurrences(of: " ", with: "").hasPrefix("q=0")
                    && !$0.contains(where: { "123456789".contains($0) })
            }
        }
    }

    /// Whether an `If-None-Match` value matches `etag` (weak comparison, `*` included).
    static func matches(ifNoneMatch: String, etag: String) -> Bool {
        // The common case first, a client sending back the one ETag it was given: no split, no trimming.
        if ifNoneMatch == etag { return true }
        return ifNoneMatch.split(separator: ",").contains { item in
            var tag = item.trimmingCharacters(in: .whitespaces)
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == "*" || tag == etag
        }
    }
}
