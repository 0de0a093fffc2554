import Tracing

/// The New Relic ids of the current span, kept in the task's `ServiceContext`: a span of this process (with its
/// ``transaction``), or a caller's read from `traceparent`/`tracestate` or `newrelic` headers.
struct NewRelicSpanContext: Sendable {
    /// The trace's id: 32 lower-case hex digits.
    let traceID: String
    /// The span's id: 16 lower-case hex digits.
    let spanID: String
    /// The request of this process the span belongs to; `nil` for a caller's span.
    let transaction: NewRelicTransaction?
    /// Whether the trace is sampled (`traceparent`'s flag, New Relic's `sa`).
    let sampled: Bool
    /// New Relic's priority of the trace (0 to 2; a caller's, or 1 plus a random fraction for a trace started here).
    let priority: Double
    /// The caller's `tracestate` entries of other vendors, passed on as they came.
    let otherVendors: [String]

    /// The context's key.
    enum Key: ServiceContextKey {
        typealias Value = NewRelicSpanContext
    }
}

extension ServiceContext {
    /// The current New Relic span, when there is one.
    var newRelicSpan: NewRelicSpanContext? {
        get { self[NewRelicSpanContext.Key.self] }
        set { self[NewRelicSpanContext.Key.self] = newValue }
    }
}
