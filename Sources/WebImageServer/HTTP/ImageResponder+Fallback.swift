import Foundation
import Hummingbird
import WebImage

extension ImageResponder {
    /// imgproxy's fallback image: the source of a request could not be downloaded, or its bytes are not an image of
    /// a format the server reads (`failure`; imgproxy's download errors, its type detection included, and never a
    /// source that fails to decode or is over a limit), so the server's fallback image is processed with the
    /// request's options and answered with the fallback status (200 by default, or the failure's own) and
    /// `Cache-Control` as imgproxy's response writer sets it
    /// (``FallbackImage/cacheControl(status:expires:now:ttl:result:)``; with `--cache-control-passthrough`, a
    /// `--fallback-image-url`'s own `Cache-Control` is passed on where the result's origin's would be).
    /// The response is not cached and carries no `ETag` (imgproxy's default, `IMGPROXY_USE_ETAG` off), so that the
    /// result, once its source can be read, is never taken for it.
    func answerFallback(
        _ fallback: FallbackImage, failure: ImageServerError, parsed: ImageURLRequest, format: FormatRequest,
        request: Request, headers: HTTPFields, now: Int, into outcome: inout Outcome
    ) async throws(ImageServerError) {
        if let kind = failure.originFailure { metrics.originError(kind: kind) }
        // As imgproxy's handleDownloadError, the failure is reported although the fallback image answers.
        outcome.failure = failure
        configuration.logger.warning(
            "could not load the source image, answering the fallback image",
            metadata: ["error": "\(failure.message)"])
        let options = parsed.options
        let image = try await fallback.image()
        let result = try await withDeadline(configuration.limits.requestTimeout) { () async throws(ImageServerError) in
            try await process(image.data, options: options, format: format, reserved: false)
        }
        var headers = headers
        headers[.eTag] = nil
        let code = fallback.status(for: failure)
        // As imgproxy's handleDownloadError, the fallback's own headers are the origin's for the passthrough.
        let own =
            cacheControlFollowsOrigin
            ? cacheControl(
                expires: options.expires, origin: ImageValidators(cacheControl: image.cacheControl), now: now)
            : headers[.cacheControl]
        headers[.cacheControl] = fallback.cacheControl(
            status: code, expires: options.expires, now: now, ttl: configuration.ttl, result: own)
        headers[.contentType] = result.format.mimeType
        headers[.contentDisposition] = disposition(parsed, format: result.format)
        headers[.contentLength] = String(result.data.count)
        if configuration.http.sendsDebugHeaders { result.debugFacts?.apply(to: &headers) }
        let status = HTTPResponse.Status(code: code)
        outcome.cache = .none
        outcome.bytes = result.data.count
        outcome.response = Response(
            status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: result.data)))
    }
}
