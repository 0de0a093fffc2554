import Tracing

/// A span of a ``TracerSet``: one span of each tracer, everything done to it done to each.
public final class SpanSet: Span {
    private let spans: [any Tracing.Span]

    /// The last span's context, which carries every other span's ids too.
    public let context: ServiceContext

    init(_ spans: [any Tracing.Span], context: ServiceContext) {
        self.spans = spans
        self.context = context
    }

    /// The name, the same in each.
    public var operationName: String {
        get { spans.first?.operationName ?? "" }
        set {
            for span in spans { span.operationName = newValue }
        }
    }

    /// The attributes, the same in each.
    public var attributes: SpanAttributes {
        get { spans.first?.attributes ?? [:] }
        set {
            for span in spans { span.attributes = newValue }
        }
    }

    /// Whether any still records.
    public var isRecording: Bool { spans.contains { $0.isRecording } }

    /// Sets every status.
    public func setStatus(_ status: SpanStatus) {
        for span in spans { span.setStatus(status) }
    }

    /// Adds the event to each.
    public func addEvent(_ event: SpanEvent) {
        for span in spans { span.addEvent(event) }
    }

    /// Records the error on each.
    public func recordError<Instant: TracerInstant>(
        _ error: any Error, attributes: SpanAttributes, at instant: @autoclosure () -> Instant
    ) {
        let time = instant()
        for span in spans { span.recordError(error, attributes: attributes, at: time) }
    }

    /// Adds the link to each.
    public func addLink(_ link: SpanLink) {
        for span in spans { span.addLink(link) }
    }

    /// Ends each, the last started first.
    public func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
        let time = instant()
        for span in spans.reversed() { span.end(at: time) }
    }
}
