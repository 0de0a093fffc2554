import Tracing

/// A span of a ``TracerPair``: one span of each tracer, everything done to it done to both.
public final class SpanPair<First: Span, Second: Span>: Span {
    private let first: First
    private let second: Second

    init(_ first: First, _ second: Second) {
        self.first = first
        self.second = second
    }

    /// The second span's context, which carries the first's ids too.
    public var context: ServiceContext { second.context }

    /// The name, the same in both.
    public var operationName: String {
        get { first.operationName }
        set {
            first.operationName = newValue
            second.operationName = newValue
        }
    }

    /// The attributes, the same in both.
    public var attributes: SpanAttributes {
        get { first.attributes }
        set {
            first.attributes = newValue
            second.attributes = newValue
        }
    }

    /// Whether either still records.
    public var isRecording: Bool { first.isRecording || second.isRecording }

    /// Sets both statuses.
    public func setStatus(_ status: SpanStatus) {
        first.setStatus(status)
        second.setStatus(status)
    }

    /// Adds the event to both.
    public func addEvent(_ event: SpanEvent) {
        first.addEvent(event)
        second.addEvent(event)
    }

    /// Records the error on both.
    public func recordError<Instant: TracerInstant>(
        _ error: any Error, attributes: SpanAttributes, at instant: @autoclosure () -> Instant
    ) {
        let time = instant()
        first.recordError(error, attributes: attributes, at: time)
        second.recordError(error, attributes: attributes, at: time)
    }

    /// Adds the link to both.
    public func addLink(_ link: SpanLink) {
        first.addLink(link)
        second.addLink(link)
    }

    /// Ends both.
    public func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
        let time = instant()
        second.end(at: time)
        first.end(at: time)
    }
}
