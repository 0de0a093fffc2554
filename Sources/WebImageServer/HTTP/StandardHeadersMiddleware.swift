import Hummingbird

/// The headers imgproxy puts on every response: `Server` (``HTTPConfiguration/serverName``),
/// `Content-Security-Policy` (nothing a result could contain may run
/// or load anything, should a browser open it as a document) and `X-Request-ID` (the client's own when it is
/// `[A-Za-z0-9_-]+`, at most 128 characters; otherwise a new one, unless the handler set one), so a request can be
/// traced in the logs and its error reports.
/// With an allowed origin (imgproxy's `IMGPROXY_ALLOW_ORIGIN`) also its CORS headers: `Access-Control-Allow-Origin`
/// and `Access-Control-Allow-Methods: GET, OPTIONS`.
struct StandardHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The `Access-Control-Allow-Origin` value; `nil` or empty sends no CORS headers.
    let allowOrigin: String?
    /// The `Server` header's value.
    let serverName: String

    static var contentSecurityPolicy: String { "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox" }
    static var allowMethods: String { "GET, OPTIONS" }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        decorate(&response, for: request)
        return response
    }

    /// Puts the headers on `response`, the answer to `request`.
    func decorate(_ response: inout Response, for request: Request) {
        response.headers[.server] = serverName
        if response.headers[.contentSecurityPolicy] == nil {
            response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        }
        // A handler that named the request already (an error report) set it.
        if response.headers[.requestID] == nil {
            response.headers[.requestID] = Self.requestID(request.headers[.requestID])
        }
        if let allowOrigin, !allowOrigin.isEmpty {
            response.headers[.accessControlAllowOrigin] = allowOrigin
            response.headers[.accessControlAllowMethods] = Self.allowMethods
        }
    }

    /// `given` when it is a valid request ID, else a new one: 21 characters of the URL-safe alphabet.
    static func requestID(_ given: String?) -> String {
        if let given, (1...128).contains(given.utf8.count), given.utf8.allSatisfy(Base64URL.alphabet.contains) {
            return given
        }
        return RequestIDGenerator.next()
    }
}

extension HTTPFields.Element.Name {
    /// `X-Request-ID`, made once: a name made from its text is checked and lowercased each time, and every response
    /// carries this one.
    static let requestID = HTTPFields.Element.Name("X-Request-ID")!
}
