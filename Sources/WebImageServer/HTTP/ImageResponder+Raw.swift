import Foundation
import Hummingbird
import WebImage

extension ImageResponder {
    /// imgproxy's `raw`: the source's bytes as they are, without processing, the result cache or a processing slot,
    /// but through the source fetcher, so under the largest source file (the request's `max_src_file_size` when
    /// allowed), the download timeout, the redirect limit and the address rules. The type is the one the bytes'
    /// header shows (`application/octet-stream` when none), the file name the source's stem with that format's
    /// extension; `Last-Modified` is the origin's.
    func answerRaw(
        url: URL, parsed: ImageURLRequest, request: Request, headers: HTTPFields, into outcome: inout Outcome
    ) async throws(ImageServerError) {
        let source = try await withDeadline(configuration.limits.requestTimeout) { () async throws(ImageServerError) in
            try await fetcher.fetch(url, maxSize: sourceSizeLimit(parsed.options))
        }
        let format = (try? processor.coders.info(of: source.data))?.format
        var headers = headers
        headers[.contentType] = format?.mimeType ?? "application/octet-stream"
        headers[.contentLength] = String(source.data.count)
        headers[.contentDisposition] = disposition(parsed, format: format)
        if let lastModified = source.lastModified { headers[.lastModified] = lastModified }
        outcome.cache = .none
        if request.method == .head {
            outcome.response = Response(status: .ok, headers: headers)
            return
        }
        outcome.bytes = source.data.count
        outcome.response = Response(
            status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: source.data)))
    }
}
