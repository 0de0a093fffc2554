import Foundation

/// The HTTP request about to be sent, for an ``ImageRequestModifier`` to change.
public struct ImageHTTPRequest: Sendable, Hashable {
    /// The URL to fetch.
    public var url: URL
    /// The header fields, starting with `User-Agent` and any conditional headers of the options.
    public var headers: ImageHTTPHeaders

    /// Creates a request.
    public init(url: URL, headers: ImageHTTPHeaders = [:]) {
        self.url = url
        self.headers = headers
    }
}

/// Changes an HTTP request before it is sent: headers, authorization, even the URL.
///
/// Modifiers run before coalescing, so two loads whose modified requests are equal share one download.
public struct ImageRequestModifier: Sendable {
    private let body: @Sendable (inout ImageHTTPRequest) throws(WebImageError) -> Void

    /// Creates a modifier from a closure; throwing fails the load with that error.
    public init(_ body: @escaping @Sendable (inout ImageHTTPRequest) throws(WebImageError) -> Void) {
        self.body = body
    }

    /// Applies the modifier.
    public func modify(_ request: inout ImageHTTPRequest) throws(WebImageError) { try body(&request) }

    /// Leaves the request alone.
    public static let identity = ImageRequestModifier { _ in }

    /// Sets the header fields in `headers`, replacing fields of the same name.
    public static func headers(_ headers: ImageHTTPHeaders) -> ImageRequestModifier {
        ImageRequestModifier { request in
            for field in headers { request.headers[field.name] = field.value }
        }
    }

    /// Adds `Authorization: Basic …` for `username` and `password`.
    public static func basicAuthorization(username: String, password: String) -> ImageRequestModifier {
        let token = Data("\(username):\(password)".utf8).base64EncodedString()
        return headers(["Authorization": "Basic \(token)"])
    }

    /// Adds `Authorization: Bearer token`.
    public static func bearer(_ token: String) -> ImageRequestModifier {
        headers(["Authorization": "Bearer \(token)"])
    }

    /// Applies `self`, then `other`.
    public func then(_ other: ImageRequestModifier) -> ImageRequestModifier {
        ImageRequestModifier { request throws(WebImageError) in
            try self.modify(&request)
            try other.modify(&request)
        }
    }
}
