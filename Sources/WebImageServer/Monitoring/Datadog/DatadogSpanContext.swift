import Tracing

/// The Datadog ids of the current span, kept in the task's `ServiceContext`; for a trace continued from a request's
/// `x-datadog-*` headers, the caller's span.
struct DatadogSpanContext: Sendable, Hashable {
    /// The trace's id (its low 64 bits).
    let traceID: UInt64
    /// The span's id.
    let spanID: UInt64
    /// The sampling priority the trace carries (`x-datadog-sampling-priority`; 1, keep, for a trace started here).
    let samplingPriority: Int
    /// `x-datadog-origin` of a continued trace.
    let origin: String?
    /// The high 64 bits of a 128-bit trace id (`_dd.p.tid` in `x-datadog-tags`), as 16 hex digits.
    let traceIDHigh: String?

    /// The context's key.
    enum Key: ServiceContextKey {
        typealias Value = DatadogSpanContext
    }
}

extension ServiceContext {
    /// The current Datadog span, when there is one.
    var datadogSpan: DatadogSpanContext? {
        get { self[DatadogSpanContext.Key.self] }
        set { self[DatadogSpanContext.Key.self] = newValue }
    }
}
