import Foundation

/// What imgproxy's Go agent reports, for the spans the server records: the request is the web transaction
/// `WebTransaction/Go/request` (its entry span, with `request.method`, `request.uri` and `http.statusCode`), the
/// stages imgproxy has are its segments `Custom/Queue`, `Custom/Downloading source image` (with
/// `imgproxy.source_image_url` and `imgproxy.source_image_origin`, also set on the transaction) and
/// `Custom/Processing image`, the server's finer stages `Custom/` and their own names; the first error of a request
/// is its `TransactionError` event.
enum NewRelicNames {
    /// The transaction's name, as the agent names imgproxy's `StartTransaction("request")` of a web request.
    static let transaction = "WebTransaction/Go/request"

    /// The Trace API record of `span` in the trace of `ids`, under the span `parentID` (none for a trace's first),
    /// the transaction's entry span when `isEntry` (with what its segments `told` the transaction).
    static func record(
        _ span: FinishedSpan, ids: NewRelicSpanContext, parentID: String?, isEntry: Bool,
        told: NewRelicTransaction.State
    ) -> NewRelicSpanRecord {
        var attributes: [String: NewRelicValue] = [
            "duration.ms": .number(Double(span.end - span.start) / 1_000_000), "category": "generic",
            "sampled": .bool(ids.sampled), "priority": .number(ids.priority),
        ]
        attributes["transactionId"] = ids.transaction.map { .string($0.id) }
        attributes["parent.id"] = parentID.map { .string($0) }
        var error = span.error.flatMap { $0.isCancellation ? nil : $0 }
        if isEntry {
            attributes["name"] = .string(Self.transaction)
            attributes["transaction.name"] = .string(Self.transaction)
            attributes["nr.entryPoint"] = .bool(true)
            attributes["span.kind"] = "server"
            attributes["request.method"] = span.text("http.request.method").map { .string($0) }
            attributes["request.uri"] = .string(span.text("url.path") ?? "/")
            if let status = span.text("http.response.status_code").flatMap({ Double($0) }) {
                attributes["http.statusCode"] = .number(status)
            }
            attributes.merge(told.attributes) { own, _ in own }
            error = told.error ?? error
        } else {
            attributes["name"] = .string("Custom/" + ImgproxySegments.name(span.name))
            if let source = span.source {
                attributes["imgproxy.source_image_url"] = .string(source.url)
                attributes["imgproxy.source_image_origin"] = source.origin.map { .string($0) }
            }
        }
        if let error {
            attributes["error.class"] = .string(error.imgproxyClass)
            attributes["error.message"] = .string(error.message)
        }
        return NewRelicSpanRecord(
            traceID: ids.traceID, id: ids.spanID, timestamp: Int64(clamping: span.start / 1_000_000),
            attributes: attributes)
    }

    /// The `TransactionError` event of a transaction whose entry span is `entry` (its record), failed with `error`,
    /// for the application `appName`.
    static func errorEvent(
        _ error: FinishedSpan.Failure, entry: NewRelicSpanRecord, appName: String
    ) -> [String: NewRelicValue] {
        var event: [String: NewRelicValue] = [
            "eventType": "TransactionError", "timestamp": .number(Double(entry.timestamp)),
            "appName": .string(appName), "error.class": .string(error.imgproxyClass),
            "error.message": .string(error.message), "error.expected": .bool(false),
            "transactionName": .string(transaction), "traceId": .string(entry.traceID), "spanId": .string(entry.id),
        ]
        for key in [
            "duration.ms", "transactionId", "request.method", "request.uri", "http.statusCode", "sampled", "priority",
            "imgproxy.source_image_url", "imgproxy.source_image_origin",
        ] {
            event[key] = entry.attributes[key]
        }
        if case .number(let milliseconds)? = event.removeValue(forKey: "duration.ms") {
            event["duration"] = .number(milliseconds / 1000)
        }
        if let id = event.removeValue(forKey: "transactionId") { event["guid"] = id }
        return event
    }
}
