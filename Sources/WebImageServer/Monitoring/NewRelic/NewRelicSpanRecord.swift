import Foundation

/// One finished span as New Relic's Trace API takes it in its `newrelic` format: the trace's and the span's ids, the
/// start in milliseconds since 1970, and the attributes (`name`, `parent.id`, `duration.ms`, imgproxy's…).
struct NewRelicSpanRecord: Sendable, Equatable, Encodable {
    let traceID: String
    let id: String
    /// Milliseconds since 1970.
    let timestamp: Int64
    var attributes: [String: NewRelicValue]

    private enum CodingKeys: String, CodingKey {
        case traceID = "trace.id"
        case id, timestamp, attributes
    }

    /// The body of a Trace API post of `spans`: one batch, the attributes of every span in `common`.
    static func payload(_ spans: [NewRelicSpanRecord], common: [String: NewRelicValue]) throws -> Data {
        try NewRelicSpanRecord.encoder.encode([Batch(common: Common(attributes: common), spans: spans)])
    }

    /// The body of an Event API post of `events`: a JSON array of objects.
    static func events(_ events: [[String: NewRelicValue]]) throws -> Data { try encoder.encode(events) }

    /// New Relic's JSON, keys sorted.
    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    private struct Batch: Encodable {
        let common: Common
        let spans: [NewRelicSpanRecord]
    }

    private struct Common: Encodable {
        let attributes: [String: NewRelicValue]
    }
}
