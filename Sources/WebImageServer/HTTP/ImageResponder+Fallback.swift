import Foundation
import Hummingbird
import WebImage

extension ImageResponder {
    /// imgproxy's fallback image: the source of a request could not be loaded or decoded (`failure`), so the
    /// server's fallback image is processed with the request's options and answered with the fallback status (200
    /// by default, or the failure's own), `Cache-Control` shortened to the fallback TTL when it has one. The
    /// response is not cached and carries no `ETag`, so that the result, once its source can be read, is not taken
    /// for it.
    func answerFallback(
        _ fallback: FallbackImage, failure: ImageServerError, parsed: ImageURLRequest, format: ImageFormat?,
        request: Request, headers: HTTPFields, now: Int, into outcome: inout Outcome
    ) async throws(ImageServerError) {
        if let kind = failure.originFailure { metrics.originError(kind: kind) }
        configuration.logger.warning(
            "could not load the source image, answering the fallback image",
            metadata: ["error": "\(failure.message)"])
        let options = parsed.options
        let data = try await fallback.data()
        let result = try await withDeadline(configuration.limits.requestTimeout) { () async throws(ImageServerError) in
            try await process(data, options: options, format: format, reserved: false)
        }
        var headers = headers
        let ttl = fallback.configuration.ttl
        if ttl > 0 {
            headers[.cacheControl] = "max-age=\(min(ttl, maxAge(expires: options.expires, now: now))), public"
        }
        headers[.contentType] = result.format.mimeType
        headers[.contentDisposition] = disposition(parsed, format: result.format)
        headers[.contentLength] = String(result.data.count)
        if configuration.http.sendsDebugHeaders { result.debugFacts?.apply(to: &headers) }
        let status = HTTPResponse.Status(code: fallback.status(for: failure))
        outcome.cache = .none
        outcome.bytes = result.data.count
        outcome.response = Response(
            status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: result.data)))
    }
}
