import Foundation
import Tracing

/// imgproxy's names and tags for the spans the server records: the request's span is imgproxy's `request` (type
/// `web`, with `http.method`, `http.url` and `http.status_code`), the source fetch is `downloading_image` (with
/// `imgproxy.image_url` and `imgproxy.image_origin`), processing is `processing_image`; the server's finer stages
/// (options, result cache, decode, each processing step, encode…) keep their names, lowercased with `_` for spaces
/// as imgproxy formats a segment name.
enum DatadogNames {
    /// The server's stage names that imgproxy names otherwise.
    static let renamed = ["source fetch": "downloading_image", "processing": "processing_image"]

    /// A record of the span `name` (the request's when `isRoot`) with imgproxy's name, type and tags from
    /// `attributes`; ids, times and the error are filled in by the caller.
    static func record(name: String, isRoot: Bool, attributes: SpanAttributes) -> DatadogSpanRecord {
        var meta: [String: String] = [:]
        var metrics: [String: Double] = ["_dd.measured": 1]
        let spanName: String
        if isRoot {
            spanName = "request"
            metrics["_dd.top_level"] = 1
            meta["http.method"] = text(attributes.get("http.request.method"))
            var url = text(attributes.get("url.path")) ?? "/"
            if let query = text(attributes.get("url.query")), !query.isEmpty { url += "?" + query }
            meta["http.url"] = url
            meta["http.status_code"] = text(attributes.get("http.response.status_code"))
        } else {
            spanName = renamed[name] ?? name.lowercased().replacingOccurrences(of: " ", with: "_")
        }
        if let source = text(attributes.get("imgproxy.source_image_url")) {
            meta["imgproxy.image_url"] = source
            if let url = URL(string: source), let scheme = url.scheme, let host = url.host {
                meta["imgproxy.image_origin"] = url.port.map { "\(scheme)://\(host):\($0)" } ?? "\(scheme)://\(host)"
            }
        }
        return DatadogSpanRecord(
            traceID: 0, spanID: 0, parentID: 0, name: spanName, resource: spanName, service: "",
            type: isRoot ? "web" : "", start: 0, duration: 0, error: false, meta: meta, metrics: metrics)
    }

    /// The text of an attribute's value (numbers written out), `nil` for none.
    private static func text(_ attribute: SpanAttribute?) -> String? {
        switch attribute {
        case .none: return nil
        case .string(let value): return value
        case .int64(let value): return String(value)
        case .int32(let value): return String(value)
        case .double(let value): return String(value)
        case .bool(let value): return String(value)
        case .some(let other): return "\(other)"
        }
    }
}
