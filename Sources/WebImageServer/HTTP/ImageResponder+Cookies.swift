import Foundation
import Hummingbird
import WebImage

extension ImageResponder {
    /// Whether a request may carry cookies for its origin: passthrough is on and it has a `Cookie` field. Such a
    /// request never takes the repeated-path shortcut, whose answer was made without them.
    func mayPassCookies(_ request: Request) -> Bool {
        configuration.fetching.cookies != nil && request.headers[.cookie] != nil
    }

    /// The `Cookie` field to send with the download of `url` for `request`, as ``CookiePassthrough`` decides; `nil`
    /// when none goes there (and for sources that are not HTTP).
    func passedCookies(_ request: Request, source url: URL) -> String? {
        guard let passthrough = configuration.fetching.cookies, HTTPImageLoader.canLoadScheme(of: url) else {
            return nil
        }
        let client = CookiePassthrough.ClientRequest(
            cookies: request.headers[values: .cookie], host: request.head.authority,
            forwardedProto: request.headers[Self.forwardedProto], forwardedHost: request.headers[Self.forwardedHost],
            forwardedPort: request.headers[Self.forwardedPort])
        return passthrough.header(for: client, source: url)
    }

    /// Answers a request whose source is fetched with the client's cookies: the origin may answer each client
    /// differently, so neither the result nor the source is looked up in or kept in any cache (memory, disk, shared
    /// tier, peers), identical requests are not merged, and no validator answers 304. The response's headers are
    /// imgproxy's, as for any result.
    func answerWithCookies(
        _ cookies: String, url: URL, parsed: ImageURLRequest, format: FormatRequest, request: Request,
        headers: HTTPFields, now: Int, into outcome: inout Outcome
    ) async throws(ImageServerError) {
        let options = parsed.options
        let result: StoredResult
        do throws(ImageServerError) {
            result = try await withDeadline(configuration.limits.requestTimeout) {
                () async throws(ImageServerError) -> StoredResult in
                try gate.reserve()
                let source: SourceFetcher.Source
                do throws(ImageServerError) {
                    source = try await tracing.stage("source fetch") { span throws(ImageServerError) in
                        span?.attributes["server.address"] = url.host
                        span?.attributes["imgproxy.source_image_url"] = url.absoluteString
                        return try await fetcher.fetch(url, cookies: cookies, maxSize: sourceSizeLimit(options))
                    }
                } catch {
                    gate.unreserve()
                    throw error
                }
                let made = try await process(source.data, options: options, format: format, reserved: true)
                return StoredResult(
                    data: made.data, format: made.format, origin: source.validators, validators: validators,
                    debug: made.debugFacts)
            }
        } catch {
            guard error.isSourceFailure, let fallback else { throw error }
            try await answerFallback(
                fallback, failure: error, parsed: parsed, format: format, request: request, headers: headers,
                now: now, into: &outcome)
            return
        }
        outcome.cache = .miss
        var headers = headers
        if cacheControlFollowsOrigin {
            headers[.cacheControl] = cacheControl(expires: options.expires, origin: result.origin, now: now)
        }
        outcome.respond(with: result, headers: headers, disposition: disposition(parsed, format: result.format))
    }

    private static let forwardedProto = HTTPFields.Element.Name("X-Forwarded-Proto")!
    private static let forwardedHost = HTTPFields.Element.Name("X-Forwarded-Host")!
    private static let forwardedPort = HTTPFields.Element.Name("X-Forwarded-Port")!
}
