import Foundation

/// Which cookies of a client's request go to the origin of its source, as imgproxy's `cookies` package decides
/// (`IMGPROXY_COOKIE_PASSTHROUGH`, `IMGPROXY_COOKIE_PASSTHROUGH_ALL`, `IMGPROXY_COOKIE_BASE_URL`).
///
/// Without ``passesAll`` the client's cookies are host-only cookies of a base URL, as a browser would have them: the
/// ``baseURL``, else the URL the client asked (`X-Forwarded-Proto`, else `http`; `X-Forwarded-Host`, else `Host`;
/// `X-Forwarded-Port`). They go to a source on that host (any port, as Go's cookie jar) under the base URL's path,
/// and to no other. With ``passesAll`` every cookie goes to the source, whatever its host. Either way a redirect to
/// another host sends none (the loader drops `Cookie` there), and the answer is never cached (docs: README).
public struct CookiePassthrough: Sendable, Hashable {
    /// Pass every cookie to any source (imgproxy's `IMGPROXY_COOKIE_PASSTHROUGH_ALL`).
    public var passesAll: Bool
    /// The URL the client's cookies belong to (imgproxy's `IMGPROXY_COOKIE_BASE_URL`); `nil`: the request's own.
    public var baseURL: URL?

    /// Cookies of the request's own URL (or `baseURL`), or all of them.
    public init(passesAll: Bool = false, baseURL: URL? = nil) {
        self.passesAll = passesAll
        self.baseURL = baseURL
    }

    /// What a client's request says about where its cookies belong.
    struct ClientRequest {
        /// Every `Cookie` field's value.
        var cookies: [String]
        /// `Host` (the request's authority).
        var host: String?
        var forwardedProto: String?
        var forwardedHost: String?
        var forwardedPort: String?
    }

    /// The `Cookie` field for a download of `source`, `nil` when no cookie goes there.
    func header(for request: ClientRequest, source: URL) -> String? {
        let cookies = Self.parse(request.cookies)
        guard !cookies.isEmpty else { return nil }
        if passesAll { return Self.field(cookies) }
        guard let base = baseURL ?? Self.requestURL(request), let scheme = base.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = base.host?.lowercased(), !host.isEmpty,
            let sourceScheme = source.scheme?.lowercased(), sourceScheme == "http" || sourceScheme == "https",
            source.host?.lowercased() == host, Self.pathMatches(source.path, cookiePath: Self.defaultPath(base.path))
        else { return nil }
        return Self.field(cookies)
    }

    /// The URL the client asked, as imgproxy rebuilds it; `nil` without a host.
    private static func requestURL(_ request: ClientRequest) -> URL? {
        var host = request.forwardedHost ?? request.host ?? ""
        guard !host.isEmpty else { return nil }
        if let port = request.forwardedPort, !port.isEmpty { host += ":" + port }
        return URL(string: "\(request.forwardedProto ?? "http")://\(host)")
    }

    /// The cookies of `fields` as Go's `Request.Cookies` reads them: `name=value` pairs split on `;`, each name a
    /// token, each value of cookie characters (quotes around it are kept as quoted); a name sent twice keeps its
    /// first place and its last value, as the cookie jar keeps them.
    static func parse(_ fields: [String]) -> [(name: String, value: String)] {
        var cookies: [(name: String, value: String)] = []
        for field in fields {
            for part in field.split(separator: ";") {
                let pair = part.trimmingCharacters(in: .whitespaces)
                let (name, rawValue) =
                    pair.firstIndex(of: "=").map { (String(pair[..<$0]), String(pair[pair.index(after: $0)...])) }
                    ?? (pair, "")
                guard !name.isEmpty, name.unicodeScalars.allSatisfy(isTokenCharacter) else { continue }
                var value = rawValue
                let quoted = value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\"")
                if quoted { value = String(value.dropFirst().dropLast()) }
                guard value.unicodeScalars.allSatisfy(isValueCharacter) else { continue }
                let sent = quoted || value.contains(" ") || value.contains(",") ? "\"\(value)\"" : value
                if let index = cookies.firstIndex(where: { $0.name == name }) {
                    cookies[index].value = sent
                } else {
                    cookies.append((name, sent))
                }
            }
        }
        return cookies
    }

    /// The `Cookie` field of `cookies`, as Go's `Request.AddCookie` joins them.
    private static func field(_ cookies: [(name: String, value: String)]) -> String {
        cookies.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    /// The path a cookie without one gets from the URL that set it (RFC 6265 5.1.4): up to the last `/`, or `/`.
    static func defaultPath(_ path: String) -> String {
        guard path.hasPrefix("/"), let last = path.lastIndex(of: "/"), last != path.startIndex else { return "/" }
        return String(path[..<last])
    }

    /// Whether a request for `path` gets a cookie of `cookiePath` (RFC 6265 5.1.4).
    static func pathMatches(_ path: String, cookiePath: String) -> Bool {
        let path = path.isEmpty ? "/" : path
        guard path.hasPrefix(cookiePath) else { return false }
        return path.count == cookiePath.count || cookiePath.hasSuffix("/")
            || path.dropFirst(cookiePath.count).hasPrefix("/")
    }

    private static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value > 0x20 && scalar.value < 0x7F && !"()<>@,;:\\\"/[]?={}".unicodeScalars.contains(scalar)
    }

    private static func isValueCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0x20 && scalar.value < 0x7F && scalar != "\"" && scalar != ";" && scalar != "\\"
    }
}
