import Foundation
import Hummingbird
import WebImage

extension ImageResponder {
    /// The client's request headers a `raw` request passes to the origin (imgproxy's stream
    /// `PassthroughRequestHeaders`).
    static let rawRequestHeaders: [HTTPFields.Element.Name] = [.ifNoneMatch, .ifModifiedSince, .acceptEncoding, .range]
    /// The origin's response headers a `raw` request passes back (imgproxy's stream `PassthroughResponseHeaders`).
    static let rawResponseHeaders: [HTTPFields.Element.Name] = [
        .contentType, .contentEncoding, .contentRange, .acceptRanges, .lastModified, .eTag,
    ]

    /// imgproxy's `raw`: the origin's answer as it is, without processing, the result cache, the originals cache or a
    /// processing slot, as imgproxy streams it. The client's `If-None-Match`, `If-Modified-Since`, `Accept-Encoding`
    /// and `Range` go to the origin; its status (206, 304, 404… as well as 200), body and `Content-Type`,
    /// `Content-Encoding`, `Content-Range`, `Accept-Ranges`, `Last-Modified` and `ETag` come back. The source is
    /// still fetched under the largest source file (the request's `max_src_file_size` when allowed), the download
    /// timeout, the redirect limit, the address rules and the request's deadline, and read whole before it is sent.
    /// Without an origin `Content-Type` the type is the one the bytes' header shows (`application/octet-stream` when
    /// none); a success carries `Content-Disposition` (the source path's file name, `filename` for its stem, the
    /// type's extension when the path has none) and the `Cache-Control` of any answer; an error status carries no
    /// `Cache-Control`, as imgproxy's.
    func answerRaw(
        url: URL, parsed: ImageURLRequest, request: Request, headers: HTTPFields, into outcome: inout Outcome
    ) async throws(ImageServerError) {
        var forwarded = ImageHTTPHeaders()
        for name in Self.rawRequestHeaders {
            for value in request.headers[values: name] { forwarded.add(name: name.canonicalName, value: value) }
        }
        let maxSize = sourceSizeLimit(parsed.options)
        let answer = try await withDeadline(configuration.limits.requestTimeout) {
            [fetcher, forwarded] () async throws(ImageServerError) in
            try await fetcher.passThrough(url, headers: forwarded, maxSize: maxSize)
        }
        let status = answer.httpStatus ?? 200
        if status >= 400 {
            metrics.originError(kind: status < 500 ? .status4xx : .status5xx)
        }
        var headers = headers
        if cacheControlFollowsOrigin {
            headers[.cacheControl] = cacheControl(
                expires: parsed.options.expires, origin: SourceFetcher.validators(of: answer),
                now: Int(Date().timeIntervalSince1970))
        }
        if status >= 400 { headers[.cacheControl] = nil }
        for name in Self.rawResponseHeaders {
            for value in answer.headers.values(of: name.canonicalName) {
                headers.append(HTTPFields.Element(name: name, value: value))
            }
        }
        let succeeded = (200..<300).contains(status)
        // Without the origin's type, the one the bytes' header shows (as Go's server sniffs one for imgproxy).
        let format =
            answer.contentType.map { Self.format(mimeType: $0) }
            ?? (answer.data.isEmpty ? nil : (try? processor.coders.info(of: answer.data))?.format)
        if answer.contentType == nil, succeeded, !answer.data.isEmpty {
            headers[.contentType] = format?.mimeType ?? "application/octet-stream"
        }
        if succeeded { headers[.contentDisposition] = rawDisposition(url: url, parsed: parsed, format: format) }
        if status != 304 { headers[.contentLength] = String(answer.data.count) }
        outcome.cache = .none
        let responseStatus = HTTPResponse.Status(code: status)
        if answer.data.isEmpty {
            outcome.response = Response(status: responseStatus, headers: headers)
            return
        }
        outcome.bytes = answer.data.count
        outcome.response = Response(
            status: responseStatus, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.data)))
    }

    /// `inline; filename="stem.ext"` (or `attachment`) for a `raw` answer, as imgproxy's stream writes it: the stem and
    /// extension of the source path's last segment (no query), the `filename` option for the stem, the extension of
    /// `format` when the path has none, `image` when no stem is left.
    func rawDisposition(url: URL, parsed: ImageURLRequest, format: ImageFormat?) -> String {
        let last = url.path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        var (stem, ext) = (last, "")
        if let dot = last.lastIndex(of: "."), dot != last.startIndex {
            (stem, ext) = (String(last[..<dot]), String(last[dot...]))
        }
        if !parsed.options.filename.isEmpty { stem = parsed.options.filename }
        if ext.isEmpty, let format, format != .unknown { ext = "." + format.fileExtension }
        stem = String(String.UnicodeScalarView(stem.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
            .replacingOccurrences(of: "\"", with: "%22")
        ext = String(String.UnicodeScalarView(ext.unicodeScalars.filter { $0.value > 0x20 && $0.value != 0x7F }))
            .replacingOccurrences(of: "\"", with: "%22")
        if stem.isEmpty { stem = "image" }
        let type = parsed.options.returnAttachment ? "attachment" : "inline"
        return "\(type); filename=\"\(stem)\(ext)\""
    }

    /// The format whose MIME type is `mimeType` (already lowercased and without parameters), if the server knows it.
    static func format(mimeType: String) -> ImageFormat? {
        let formats: [ImageFormat] = [.jpeg, .png, .gif, .webp, .avif, .heic, .jxl, .tiff, .bmp, .ico, .svg]
        if mimeType == "image/jpg" { return .jpeg }
        return formats.first { $0.mimeType == mimeType }
    }
}

extension ImageHTTPHeaders {
    /// Every value of the field `name` (case-insensitive), in order.
    fileprivate func values(of name: String) -> [String] {
        fields.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }
}
