/// The batches of one signal, as `OTEL_BSP_*` (spans) and `OTEL_BLRP_*` (log records) set them: how often the
/// waiting records are exported, how many may wait (more are dropped), how many go in one request, and how long one
/// export may take.
package struct OTLPBatchLimits: Sendable, Hashable {
    /// `OTEL_BSP_SCHEDULE_DELAY` / `OTEL_BLRP_SCHEDULE_DELAY` (5 s for spans, 1 s for log records).
    package var scheduleDelay: Duration
    /// `OTEL_BSP_MAX_QUEUE_SIZE` / `OTEL_BLRP_MAX_QUEUE_SIZE` (2048).
    package var maximumQueueSize: Int
    /// `OTEL_BSP_MAX_EXPORT_BATCH_SIZE` / `OTEL_BLRP_MAX_EXPORT_BATCH_SIZE` (512).
    package var maximumBatchSize: Int
    /// `OTEL_BSP_EXPORT_TIMEOUT` / `OTEL_BLRP_EXPORT_TIMEOUT` (30 s).
    package var exportTimeout: Duration

    /// OpenTelemetry's defaults for spans.
    package static let spans = OTLPBatchLimits(
        scheduleDelay: .seconds(5), maximumQueueSize: 2048, maximumBatchSize: 512, exportTimeout: .seconds(30))
    /// OpenTelemetry's defaults for log records.
    package static let logRecords = OTLPBatchLimits(
        scheduleDelay: .seconds(1), maximumQueueSize: 2048, maximumBatchSize: 512, exportTimeout: .seconds(30))

    package init(scheduleDelay: Duration, maximumQueueSize: Int, maximumBatchSize: Int, exportTimeout: Duration) {
        self.scheduleDelay = scheduleDelay
        self.maximumQueueSize = max(1, maximumQueueSize)
        self.maximumBatchSize = max(1, min(maximumBatchSize, self.maximumQueueSize))
        self.exportTimeout = exportTimeout
    }
}
