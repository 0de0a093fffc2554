import Tracing

/// A span of the server's own tracers (``DatadogTracer``, ``NewRelicTracer``): recorded under a lock while it runs,
/// handed to its tracer as a `FinishedSpan` when it ends, which the tracer turns into its vendor's record.
public final class RecordingSpan: Span {
    /// The span's context: its parent's, with the tracer's ids of the span.
    public let context: ServiceContext
    private let kind: SpanKind
    private let start: UInt64
    private let state: SpanState<Outcome>
    private let finish: @Sendable (FinishedSpan) -> Void

    /// Whether the span failed, and its first error.
    private struct Outcome {
        var error: FinishedSpan.Failure?
        var failed = false
    }

    init(
        name: String, context: ServiceContext, kind: SpanKind, start: UInt64,
        finish: @escaping @Sendable (FinishedSpan) -> Void
    ) {
        self.context = context
        self.kind = kind
        self.start = start
        self.finish = finish
        state = SpanState(name: name, extra: Outcome())
    }

    /// The span's name as the server gave it (imgproxy's is given when it is sent).
    public var operationName: String {
        get { state.name }
        set { state.name = newValue }
    }

    /// The span's attributes; those of the request and the source become imgproxy's.
    public var attributes: SpanAttributes {
        get { state.attributes }
        set { state.attributes = newValue }
    }

    /// Whether the span has not ended.
    public var isRecording: Bool { state.isRecording }

    /// An error status marks the span failed.
    public func setStatus(_ status: SpanStatus) {
        guard status.code == .error else { return }
        state.update { $0.failed = true }
    }

    /// Events are not sent (imgproxy's agents send none).
    public func addEvent(_ event: SpanEvent) {}

    /// Links are not sent.
    public func addLink(_ link: SpanLink) {}

    /// Marks the span failed with `error` (the first one recorded is kept).
    public func recordError<Instant: TracerInstant>(
        _ error: any Error, attributes: SpanAttributes, at instant: @autoclosure () -> Instant
    ) {
        let recorded = FinishedSpan.Failure(error)
        state.update {
            $0.failed = true
            if $0.error == nil { $0.error = recorded }
        }
    }

    /// Ends the span and hands it to the tracer; a second end does nothing.
    public func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
        let end = instant().nanosecondsSinceEpoch
        guard let ended = state.end() else { return }
        finish(
            FinishedSpan(
                name: ended.name, kind: kind, attributes: ended.attributes, failed: ended.extra.failed,
                error: ended.extra.error, start: start, end: max(start, end)))
    }
}
