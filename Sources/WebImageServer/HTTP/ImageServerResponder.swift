import Hummingbird

/// The responder of ``ImageServer/makeApplication(address:onServerRunning:)``: the server's router, with two
/// differences that only a whole application can have.
///
/// - A `GET` whose first path segment names none of the server's own routes (`health`, `metrics`, `info`, `admin`,
///   the health-check path, the landing page) is an image request whatever the router would do with it: it goes to
///   the image handler directly, without the router's trie and its middleware chain, which cost a cache hit about
///   7 % of its time (docs/benchmarks.md, issue 29). The answers are the router's: the same handler, the same headers.
/// - The router's own 404s and 405s (a method no route has, on any path) get the headers every answer carries,
///   `X-Request-ID` among them, as imgproxy's do.
///
/// Only without a path prefix and without tracing (whose middleware names spans after the router's route); otherwise
/// every request goes through the router.
struct ImageServerResponder<Context: RequestContext>: HTTPResponder {
    let router: RouterResponder<Context>
    /// The image handler the router's `**` route calls, or `nil` for no direct path.
    let image: (@Sendable (Request, Context) async throws -> Response)?
    /// The first path segments the router has routes of its own for.
    let routedSegments: Set<Substring>
    let headers: StandardHeadersMiddleware<Context>

    func respond(to request: Request, context: Context) async throws -> Response {
        if let image, request.method == .get, !routedSegments.contains(Self.firstSegment(of: request.uri.path)) {
            var response: Response
            do { response = try await image(request, context) } catch let error as any HTTPResponseError {
                response = try error.response(from: request, context: context)
            }
            headers.decorate(&response, for: request)
            return response
        }
        var response = try await router.respond(to: request, context: context)
        if response.headers[.requestID] == nil {
            headers.decorate(&response, for: request)
        }
        return response
    }

    /// The text between the first `/` of `path` and the next one (empty for `/` and `//...`).
    static func firstSegment(of path: String) -> Substring {
        let rest = path.utf8.first == UInt8(ascii: "/") ? path.dropFirst() : path[...]
        return rest.prefix { $0 != "/" }
    }
}
