import Tracing
import WebImage

/// A span of ``DatadogTracer``: recorded under a lock while it runs, handed to the tracer as a
/// record in the agent's form (with imgproxy's name) when it ends.
public final class DatadogSpan: Span {
    /// The span's context: its parent's, with the span's Datadog ids.
    public let context: ServiceContext
    private let ids: DatadogSpanContext
    private let parentID: UInt64
    private let kind: SpanKind
    private let start: UInt64
    private let state: Locked<State>
    private let finish: @Sendable (DatadogSpanRecord) -> Void

    /// What changes while the span runs.
    private struct State {
        var name: String
        var attributes: SpanAttributes = [:]
        var error: (type: String, message: String)?
        var failed = false
        var ended = false
    }

    init(
        name: String, context: ServiceContext, ids: DatadogSpanContext, parentID: UInt64, kind: SpanKind,
        start: UInt64, finish: @escaping @Sendable (DatadogSpanRecord) -> Void
    ) {
        var context = context
        context.datadogSpan = ids
        self.context = context
        self.ids = ids
        self.parentID = parentID
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

    /// The span's attributes; those of the request and the source become imgproxy's tags.
    public var attributes: SpanAttributes {
        get { state.withLock { $0.attributes } }
        set { state.withLock { $0.attributes = newValue } }
    }

    /// Whether the span has not ended.
    public var isRecording: Bool { state.withLock { !$0.ended } }

    /// An error status sets the span's error flag.
    public func setStatus(_ status: SpanStatus) {
        guard status.code == .error else { return }
        state.withLock { $0.failed = true }
    }

    /// Events are not sent (dd-trace-go's spans have none).
    public func addEvent(_ event: SpanEvent) {}

    /// Links are not sent.
    public func addLink(_ link: SpanLink) {}

    /// Sets the error flag, `error.type` and `error.message`.
    public func recordError<Instant: TracerInstant>(
        _ error: any Error, attributes: SpanAttributes, at instant: @autoclosure () -> Instant
    ) {
        let recorded = (type: String(reflecting: type(of: error)), message: String(describing: error))
        state.withLock {
            $0.failed = true
            $0.error = recorded
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
        var record = DatadogNames.record(
            name: ended.name, isRoot: kind == .server,
            attributes: ended.attributes)
        record.traceID = ids.traceID
        record.spanID = ids.spanID
        record.parentID = parentID
        record.start = Int64(clamping: start)
        record.duration = end > start ? Int64(clamping: end - start) : 0
        record.error = ended.failed
        if let error = ended.error {
            record.meta["error.type"] = error.type
            record.meta["error.message"] = error.message
        }
        if let high = ids.traceIDHigh { record.meta["_dd.p.tid"] = high }
        if let origin = ids.origin { record.meta["_dd.origin"] = origin }
        finish(record)
    }
}
