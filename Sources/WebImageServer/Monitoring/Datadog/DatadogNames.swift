import Foundation
import Tracing

/// imgproxy's names and tags for the spans the server records: the request's span is imgproxy's `request` (type
/// `web`, with `http.method`, `http.url` and `http.status_code`), the processing slot's wait is `queue`, the source
/// fetch is `downloading_source_image` (with `imgproxy.source_image_url` and `imgproxy.source_image_origin`),
/// processing is `processing_image`; the server's finer stages (options, result cache, decode, each processing
/// step, encode…) keep their names, lowercased with `_` for spaces as imgproxy formats a segment name.
enum DatadogNames {
    /// The record of `span` (the request's when it is a server span) with imgproxy's name, type and tags, in the
    /// trace of `ids` under `parentID`.
    static func record(_ span: FinishedSpan, ids: DatadogSpanContext, parentID: UInt64) -> DatadogSpanRecord {
        var meta: [String: String] = [:]
        var metrics: [String: Double] = ["_dd.measured": 1]
        let isRoot = span.kind == .server
        let name: String
        if isRoot {
            name = "request"
            metrics["_dd.top_level"] = 1
            meta["http.method"] = span.text("http.request.method")
            var url = span.text("url.path") ?? "/"
            if let query = span.text("url.query"), !query.isEmpty { url += "?" + query }
            meta["http.url"] = url
            meta["http.status_code"] = span.text("http.response.status_code")
        } else {
            name = ImgproxySegments.formatted(span.name)
        }
        if let source = span.source {
            meta["imgproxy.source_image_url"] = source.url
            meta["imgproxy.source_image_origin"] = source.origin
        }
        if let error = span.error {
            meta["error.type"] = error.imgproxyClass
            meta["error.message"] = error.message
        }
        if let high = ids.traceIDHigh { meta["_dd.p.tid"] = high }
        if let origin = ids.origin { meta["_dd.origin"] = origin }
        return DatadogSpanRecord(
            traceID: ids.traceID, spanID: ids.spanID, parentID: parentID, name: name, resource: name, service: "",
            type: isRoot ? "web" : "", start: Int64(clamping: span.start),
            duration: Int64(clamping: span.end - span.start),
            error: span.failed, meta: meta, metrics: metrics)
    }
}
