import Foundation
import Logging
import ServiceLifecycle
import Tracing

/// A swift-log handler that exports every record over OTLP as a `LogRecord` (time, severity, the message as its
/// body, the metadata as its attributes, the current span's ids), under the instrumentation scope named by imgproxy's
/// `IMGPROXY_OPEN_TELEMETRY_LOGGER_NAME` (`imgproxy` by default), batched (`OTEL_BLRP_*`). ``exporter`` is the
/// service that sends them: run it beside the server.
package struct OTLPLogHandler: LogHandler {
    /// The batches of every handler made from one exporter, and the service that sends them.
    package final class Exporter: Service {
        fileprivate let batcher: OTLPBatcher

        /// An exporter through `transport`, from a resource of `resource`, under the scope `scope`.
        package init(
            transport: any OTLPTransport, resource: [String: String], scope: String, limits: OTLPBatchLimits,
            logger: Logger
        ) {
            batcher = OTLPBatcher(
                .logs, limits: limits, transport: transport, resource: .resource(resource), scope: scope,
                logger: logger)
        }

        /// Exports on schedule until graceful shutdown, then what is left.
        package func run() async throws { try await batcher.run() }
    }

    package var metadata: Logger.Metadata = [:]
    package var logLevel: Logger.Level = .info
    private let exporter: Exporter

    /// A handler queueing its records in `exporter`.
    package init(exporter: Exporter) { self.exporter = exporter }

    package subscript(metadataKey key: String) -> Logger.MetadataValue? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        let now = UInt64(max(0, Date().timeIntervalSince1970 * 1_000_000_000))
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        var record = OTLPMessage().with(1, "timeUnixNano", .fixed64(now))
            .with(2, "severityNumber", .unsigned(Self.severity(event.level)))
            .with(3, "severityText", .string(Self.severityText(event.level)))
            .with(5, "body", .message(.string(event.message.description)))
            .with(6, "attributes", repeated: OTLPMessage.attributes(merged))
        if let span = ServiceContext.current?.otlpSpan {
            record = record.with(8, "flags", .fixed32(span.sampled ? 1 : 0)).with(9, "traceId", .bytes(span.traceID))
                .with(10, "spanId", .bytes(span.spanID))
        }
        exporter.batcher.add(record.with(11, "observedTimeUnixNano", .fixed64(now)))
    }

    /// OpenTelemetry's severity number of `level`.
    private static func severity(_ level: Logger.Level) -> UInt64 {
        switch level {
        case .trace: 1
        case .debug: 5
        case .info: 9
        case .notice: 10
        case .warning: 13
        case .error: 17
        case .critical: 21
        }
    }

    /// The severity's text, as imgproxy's slog writes it.
    private static func severityText(_ level: Logger.Level) -> String {
        switch level {
        case .trace, .debug: "DEBUG"
        case .info, .notice: "INFO"
        case .warning: "WARN"
        case .error, .critical: "ERROR"
        }
    }
}
