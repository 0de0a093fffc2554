import Tracing
import WebImage

/// A span of the server's own tracers (``DatadogTracer``, ``NewRelicTracer``): recorded under a lock while it runs,
/// handed to its tracer as a `FinishedSpan` when it ends, which the tracer turns into its vendor's record.
public final class RecordingSpan: Span {
    /// The span's context: its parent's, with the tracer's ids of the span.
    public let context: ServiceContext
    private let kind: SpanKind
    private let start: UInt64
    private let state: Locked<State>
    private let finish: @Sendable (FinishedSpan) -> Void

    /// What changes while the span runs.
    private struct State {
        var name: String
        var attributes: SpanAttributes = [:]
        var error: FinishedSpan.Failure?
        var failed = false
        var ended = false
    }

    init(
        name: String, context: ServiceContext, kind: SpanKind, start: UInt64,
        finish: @escaping @Sendable (FinishedSpan) -> Void
    ) {
        self.context = context
        self.kind = kind
        self.start = start
        self.finish = finish
        state = Locked(State(name: name))
    }

    /// The span's name as the server gave it (imgproxy's is given when it is sent).
    public var operationName: String {
        get { state.withLock { $0.name } }
        set { state.withLock { $0.name = newValue } }
    }

    /// The span's attributes; those of the request and the source become imgproxy's.
    public var attributes: SpanAttributes {
        get { state.withLock { $0.attributes } }
        set { state.withLock { $0.attributes = newValue } }
    }

    /// Whether the span has not ended.
    public var isRecording: Bool { state.withLock { !$0.ended } }

    /// An error status marks the span failed.
    public func setStatus(_ status: SpanStatus) {
        guard status.code == .error else { return }
        state.withLock { $0.failed = true }
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
        state.withLock {
            $0.failed = true
            if $0.error == nil { $0.error = recorded }
        }
    }

    /// Ends the span and hands it to the tracer; a second end does nothing.
    public func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
        let end = instant().nanosecondsSinceEpoch
        let ended = state.withLock { state -> State? in
            guard !state.ended else { return nil }
            state.ended = true
            return state
        }
        guard let ended else { return }
        finish(
            FinishedSpan(
                name: ended.name, kind: kind, attributes: ended.attributes, failed: ended.failed, error: ended.error,
                start: start, end: max(start, end)))
    }
}
