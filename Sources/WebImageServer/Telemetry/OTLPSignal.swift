/// One OTLP signal as an exporter sends it: its name (the OTLP/HTTP path's last part), its collector service (the
/// gRPC method's), and the JSON names of its `Export…ServiceRequest`'s levels, whose field numbers are the same for
/// every signal (resource 1, scope list 2; scope 1, record list 2).
package struct OTLPSignal: Sendable, Hashable {
    /// `traces`, `logs` or `metrics`.
    package let name: String
    /// The fully qualified collector service, whose method `Export` takes the requests.
    package let service: String
    private let resourceList: String
    private let scopeList: String
    private let recordList: String

    /// The trace signal: `ExportTraceServiceRequest`.
    package static let traces = OTLPSignal(
        name: "traces", service: "opentelemetry.proto.collector.trace.v1.TraceService",
        resourceList: "resourceSpans", scopeList: "scopeSpans", recordList: "spans")
    /// The log signal: `ExportLogsServiceRequest`.
    package static let logs = OTLPSignal(
        name: "logs", service: "opentelemetry.proto.collector.logs.v1.LogsService",
        resourceList: "resourceLogs", scopeList: "scopeLogs", recordList: "logRecords")

    /// The metric signal: `ExportMetricsServiceRequest`.
    package static let metrics = OTLPSignal(
        name: "metrics", service: "opentelemetry.proto.collector.metrics.v1.MetricsService",
        resourceList: "resourceMetrics", scopeList: "scopeMetrics", recordList: "metrics")

    /// The export request of `records` (spans or log records) from `resource`, under the instrumentation scope
    /// `scope`.
    func request(resource: OTLPMessage, scope: String, records: [OTLPMessage]) -> OTLPMessage {
        let scoped = OTLPMessage().with(1, "scope", .message(.scope(scope))).with(2, recordList, repeated: records)
        let resourced = OTLPMessage().with(1, "resource", .message(resource)).with(2, scopeList, repeated: [scoped])
        return OTLPMessage().with(1, resourceList, repeated: [resourced])
    }
}
