import Foundation

/// What one report says about an error, and nothing more: the error's class and message (the message the client
/// got), the request's method and URL, the source's address and the request ID. The URL is the image path with its
/// signature replaced by `_` and a plain source's credentials and query dropped; no header, cookie, origin body,
/// key or signature is in it.
struct ErrorReport: Sendable {
    /// A class for the kind of failure, as imgproxy names its error types (`DownloadError`, `ProcessingError`, ...).
    let errorClass: String
    /// The error's one-line message.
    let message: String
    /// The status the request was answered with.
    let status: Int
    /// The request's method (`GET`).
    let method: String
    /// `http://HOST/_/OPTIONS/plain/...`: the request's URL without its signature.
    let url: String
    /// The source's URL without credentials or query; empty when it was not known.
    let sourceURL: String
    /// The request's `X-Request-ID`, as its response carries it; empty when not known.
    let requestID: String
    /// When the error happened.
    let date: Date
    /// 32 lowercase hex digits naming the event (Sentry's `event_id`).
    let eventID: String
    /// The host name of this server.
    let serverName: String

    /// The report of `error` (of class `errorClass`, else ``ImageServerError/reportedClass``), answered to
    /// `method PATH` on `host`.
    init(
        _ error: ImageServerError, errorClass: String? = nil, method: String, host: String, path: String,
        source: URL?, requestID: String, serverName: String, date: Date = Date()
    ) {
        self.errorClass = errorClass ?? error.reportedClass
        message = error.message
        status = error.status
        self.method = method
        url = "http://\(host.isEmpty ? "localhost" : host)" + Self.unsignedPath(path)
        sourceURL = source.map(Self.bare) ?? ""
        self.requestID = requestID
        self.date = date
        eventID = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        self.serverName = serverName
    }

    /// The key-value context imgproxy attaches as "Processing context", without its options.
    var context: [String: String] {
        var context = ["Status": String(status)]
        if !requestID.isEmpty { context["Request ID"] = requestID }
        if !sourceURL.isEmpty {
            context["Source Image URL"] = sourceURL
            if let url = URL(string: sourceURL), let scheme = url.scheme {
                context["Source Image Origin"] = "\(scheme)://\(url.host ?? "")" + (url.port.map { ":\($0)" } ?? "")
            }
        }
        return context
    }

    /// `path` with its first segment (the signature) replaced by `_`, cut at its first `?` (or `%3F`) and without
    /// `USER:PASSWORD@` after a `://` (or its percent-encoded form after `%3A%2F%2F`), at most 2,048
    /// characters.
    static func unsignedPath(_ path: String) -> String {
        var rest = path.hasPrefix("/") ? path.dropFirst() : Substring(path)
        if let slash = rest.firstIndex(of: "/") { rest = rest[slash...] } else { rest = "" }
        var text = String(rest.prefix(2048))
        if let query = text.range(of: "?") ?? text.range(of: "%3f", options: .caseInsensitive) {
            text = String(text[..<query.lowerBound])
        }
        for (separator, slash) in [("://", "/"), ("%3A%2F%2F", "%2F"), (":/", "/")] {
            guard let scheme = text.range(of: separator, options: .caseInsensitive) else { continue }
            let after = text[scheme.upperBound...]
            let end = after.range(of: slash, options: .caseInsensitive)?.lowerBound ?? after.endIndex
            let authority = after[..<end]
            let user = ["@", "%40"].compactMap { authority.range(of: $0, options: [.caseInsensitive, .backwards]) }
                .map(\.upperBound).max()
            if let user { text.removeSubrange(scheme.upperBound..<user) }
            break
        }
        return "/_" + text
    }

    /// `url` as `scheme://host[:port]/path`.
    static func bare(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "" }
        components.user = nil
        components.password = nil
        components.query = nil
        components.fragment = nil
        return components.string ?? ""
    }
}
