/// One finished span as a Datadog agent takes it in `/v0.4/traces`: its ids, names, times in nanoseconds, error
/// flag and tags (`meta`, text) and numbers (`metrics`).
struct DatadogSpanRecord: Sendable, Equatable {
    var traceID: UInt64
    var spanID: UInt64
    /// 0 for a span without a parent.
    var parentID: UInt64
    var name: String
    var resource: String
    var service: String
    var type: String
    /// Nanoseconds since 1970.
    var start: Int64
    /// Nanoseconds.
    var duration: Int64
    var error: Bool
    var meta: [String: String]
    var metrics: [String: Double]

    /// Writes the span as the agent's msgpack map of 12 fields, `meta` and `metrics` in key order.
    func write(to writer: inout MessagePackWriter) {
        writer.map(count: 12)
        writer.string("trace_id")
        writer.unsigned(traceID)
        writer.string("span_id")
        writer.unsigned(spanID)
        writer.string("parent_id")
        writer.unsigned(parentID)
        for (key, value) in [("name", name), ("resource", resource), ("service", service), ("type", type)] {
            writer.string(key)
            writer.string(value)
        }
        writer.string("start")
        writer.signed(start)
        writer.string("duration")
        writer.signed(duration)
        writer.string("error")
        writer.signed(error ? 1 : 0)
        writer.string("meta")
        writer.map(count: meta.count)
        for (key, value) in meta.sorted(by: { $0.key < $1.key }) {
            writer.string(key)
            writer.string(value)
        }
        writer.string("metrics")
        writer.map(count: metrics.count)
        for (key, value) in metrics.sorted(by: { $0.key < $1.key }) {
            writer.string(key)
            writer.double(value)
        }
    }

    /// The body of a `PUT /v0.4/traces` of `spans`: an array of traces (spans grouped by trace id, in the order
    /// their first span came), each an array of spans.
    static func payload(_ spans: [DatadogSpanRecord]) -> (body: [UInt8], traces: Int) {
        var order: [UInt64] = []
        var traces: [UInt64: [DatadogSpanRecord]] = [:]
        for span in spans {
            if traces[span.traceID] == nil { order.append(span.traceID) }
            traces[span.traceID, default: []].append(span)
        }
        var writer = MessagePackWriter()
        writer.array(count: order.count)
        for id in order {
            let trace = traces[id] ?? []
            writer.array(count: trace.count)
            for span in trace { span.write(to: &writer) }
        }
        return (writer.bytes, order.count)
    }
}
