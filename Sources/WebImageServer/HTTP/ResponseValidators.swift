import Foundation
import WebImage

/// imgproxy 4's conditional headers (`httpheaders/conditionalheaders`): a result's `ETag` and `Last-Modified` are
/// its origin's, the client's `If-None-Match` and `If-Modified-Since` go to the origin, and the busters of
/// ``HTTPConfiguration`` change both ways.
///
/// A result in the server's tiers keeps the headers this type made for it when it was stored, so that a conditional
/// request for it is answered by comparing texts, without the origin (``isNotModified(ifNoneMatch:ifModifiedSince:etag:lastModified:)``).
struct ResponseValidators: Sendable {
    let usesETag: Bool
    /// The ETag buster; empty for none.
    let etagBuster: String
    let usesLastModified: Bool
    let lastModifiedBuster: Date?
    /// ``lastModifiedBuster`` as a header's text.
    private let busterText: String?

    init(_ configuration: HTTPConfiguration) {
        usesETag = configuration.usesETag
        etagBuster = configuration.etagBuster
        usesLastModified = configuration.usesLastModified
        lastModifiedBuster = configuration.lastModifiedBuster
        busterText = configuration.lastModifiedBuster.map(HTTPDate.string)
    }

    /// The `ETag` answered for a result whose origin sent `origin`: the origin's as it is, or with a buster
    /// `"BUSTER/base64url(origin's)"`; `nil` without one or with ETags off.
    func etag(origin: String?) -> String? {
        guard usesETag, let origin, !origin.isEmpty else { return nil }
        guard !etagBuster.isEmpty else { return origin }
        return "\"" + etagBuster + "/" + Base64URL.encode(Array(origin.utf8)) + "\""
    }

    /// The `Last-Modified` answered for a result whose origin sent `origin`: the origin's as it is, or the buster's
    /// time when the origin's is older; `nil` without a valid one or with `Last-Modified` off.
    func lastModified(origin: String?) -> String? {
        guard usesLastModified, let origin, let date = HTTPDate.date(origin) else { return nil }
        if let lastModifiedBuster, date < lastModifiedBuster { return busterText }
        return origin
    }

    /// The validators the origin is asked with for a client's `ifNoneMatch` and `ifModifiedSince` (imgproxy's
    /// `InjectImageRequestHeaders`): each as the client sent it when its feature is on; with an ETag buster, the
    /// origin's ETag unwrapped from the client's, and nothing at all when the client's does not carry the buster;
    /// with a `Last-Modified` buster, no `If-Modified-Since` that is not after it.
    func originConditions(ifNoneMatch: String?, ifModifiedSince: String?) -> ImageValidators {
        var conditions = ImageValidators()
        if usesETag, let ifNoneMatch, !ifNoneMatch.isEmpty {
            if etagBuster.isEmpty {
                conditions.etag = ifNoneMatch
            } else {
                guard let origin = unwrapped(ifNoneMatch) else { return ImageValidators() }
                conditions.etag = origin
            }
        }
        if usesLastModified, let ifModifiedSince, !ifModifiedSince.isEmpty {
            if let lastModifiedBuster {
                if let since = HTTPDate.date(ifModifiedSince), lastModifiedBuster < since {
                    conditions.lastModified = ifModifiedSince
                }
            } else {
                conditions.lastModified = ifModifiedSince
            }
        }
        return conditions
    }

    /// Whether a result answered with `etag` and `lastModified` is not modified for a client that sent
    /// `ifNoneMatch` and `ifModifiedSince`: what the origin would say to ``originConditions(ifNoneMatch:ifModifiedSince:)``.
    /// The ETag decides when both sides have one (`*`, lists and weak tags as RFC 9110 compares them); otherwise the
    /// date, when both sides have one.
    ///
    /// The common case, a client sending back the one ETag it was given, is one comparison of texts.
    func isNotModified(ifNoneMatch: String?, ifModifiedSince: String?, etag: String?, lastModified: String?) -> Bool {
        if usesETag, let ifNoneMatch, !ifNoneMatch.isEmpty {
            if let etag { return Negotiation.matches(ifNoneMatch: ifNoneMatch, etag: etag) }
            if !etagBuster.isEmpty, unwrapped(ifNoneMatch) == nil { return false }
        }
        guard usesLastModified, let ifModifiedSince, let lastModified,
            let since = HTTPDate.date(ifModifiedSince), let modified = HTTPDate.date(lastModified)
        else { return false }
        if let lastModifiedBuster, !(lastModifiedBuster < since) { return false }
        return modified <= since
    }

    /// Whether an origin that answered `etag` and `lastModified` would say 304 to `conditions` (imgproxy's storage
    /// check for sources that are not HTTP: the ETag first, then the date).
    static func originNotModified(_ conditions: ImageValidators, etag: String?, lastModified: String?) -> Bool {
        if let ifNoneMatch = conditions.etag, let etag {
            return Negotiation.matches(ifNoneMatch: ifNoneMatch, etag: etag)
        }
        guard let ifModifiedSince = conditions.lastModified, let lastModified,
            let since = HTTPDate.date(ifModifiedSince), let modified = HTTPDate.date(lastModified)
        else { return false }
        return modified <= since
    }

    /// The origin's ETag inside a client's `"BUSTER/base64url(ETag)"` (quotes and a weak `W/` ignored), or `nil`.
    private func unwrapped(_ ifNoneMatch: String) -> String? {
        var tag = Substring(ifNoneMatch)
        if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
        while tag.first == "\"" { tag = tag.dropFirst() }
        while tag.last == "\"" { tag = tag.dropLast() }
        let prefix = etagBuster + "/"
        guard tag.hasPrefix(prefix), let bytes = OptionArguments.base64URL(String(tag.dropFirst(prefix.count))) else {
            return nil
        }
        return String(data: bytes, encoding: .utf8)
    }
}
