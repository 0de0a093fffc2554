import Tracing

/// A span of `OTLPTracer`: recorded under a lock while it runs (name, attributes, events, links, status), handed to
/// the tracer as an OTLP `Span` message when it ends. A span that is not sampled records nothing.
public final class OTLPSpan: Span {
    /// The span's context: its parent's, with the span's trace context.
    public let context: ServiceContext
    private let ids: OTLPSpanContext
    private let parentID: [UInt8]?
    private let kind: SpanKind
    private let start: UInt64
    private let state: SpanState<Record>
    private let finish: @Sendable (OTLPMessage) -> Void

    /// The events, links and status recorded while the span runs.
    private struct Record {
        var events: [OTLPMessage] = []
        var links: [OTLPMessage] = []
        var status: SpanStatus?
    }

    init(
        name: String, context: ServiceContext, ids: OTLPSpanContext, parentID: [UInt8]?, kind: SpanKind,
        start: UInt64, finish: @escaping @Sendable (OTLPMessage) -> Void
    ) {
        var context = context
        context.otlpSpan = ids
        self.context = context
        self.ids = ids
        self.parentID = parentID
        self.kind = kind
        self.start = start
        self.finish = finish
        state = SpanState(name: name, extra: Record(), ended: !ids.sampled)
    }

    /// The span's name.
    public var operationName: String {
        get { state.name }
        set { state.name = newValue }
    }

    /// The span's attributes.
    public var attributes: SpanAttributes {
        get { state.attributes }
        set { state.attributes = newValue }
    }

    /// Whether the span is sampled and has not ended.
    public var isRecording: Bool { state.isRecording }

    /// Sets the span's status; an `ok` status is not changed to `error` afterwards, as OpenTelemetry says.
    public func setStatus(_ status: SpanStatus) {
        state.update { record in
            if record.status?.code == .ok { return }
            record.status = status
        }
    }

    /// Adds an event.
    public func addEvent(_ event: SpanEvent) {
        let message = Self.event(event.name, at: event.nanosecondsSinceEpoch, attributes: event.attributes)
        state.update { $0.events.append(message) }
    }

    /// Adds a link to the span of `link.context`, when it has one.
    public func addLink(_ link: SpanLink) {
        guard let other = link.context.otlpSpan else { return }
        var message = OTLPMessage().with(1, "traceId", .bytes(other.traceID)).with(2, "spanId", .bytes(other.spanID))
        if let traceState = other.traceState { message = message.with(3, "traceState", .string(traceState)) }
        message = message.with(4, "attributes", repeated: OTLPMessage.attributes(link.attributes))
        state.update { $0.links.append(message) }
    }

    /// Adds OpenTelemetry's `exception` event (`exception.type`, `exception.message`) and sets an error status.
    public func recordError<Instant: TracerInstant>(
        _ error: any Error, attributes: SpanAttributes, at instant: @autoclosure () -> Instant
    ) {
        var all = attributes
        all["exception.type"] = String(reflecting: type(of: error))
        all["exception.message"] = String(describing: error)
        let message = Self.event("exception", at: instant().nanosecondsSinceEpoch, attributes: all)
        state.update {
            $0.events.append(message)
            if $0.status?.code != .ok { $0.status = SpanStatus(code: .error, message: String(describing: error)) }
        }
    }

    /// Ends the span and hands it to the tracer; a second end does nothing.
    public func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
        let end = instant().nanosecondsSinceEpoch
        guard let ended = state.end() else { return }
        var span = OTLPMessage().with(1, "traceId", .bytes(ids.traceID)).with(2, "spanId", .bytes(ids.spanID))
        if let traceState = ids.traceState { span = span.with(3, "traceState", .string(traceState)) }
        if let parentID { span = span.with(4, "parentSpanId", .bytes(parentID)) }
        span = span.with(5, "name", .string(ended.name)).with(6, "kind", .unsigned(Self.kindNumber(kind)))
            .with(7, "startTimeUnixNano", .fixed64(start)).with(8, "endTimeUnixNano", .fixed64(max(start, end)))
            .with(9, "attributes", repeated: OTLPMessage.attributes(ended.attributes))
            .with(11, "events", repeated: ended.extra.events).with(13, "links", repeated: ended.extra.links)
        if let status = ended.extra.status {
            var message = OTLPMessage()
            if let text = status.message, status.code == .error { message = message.with(2, "message", .string(text)) }
            span = span.with(15, "status", .message(message.with(3, "code", .unsigned(status.code == .ok ? 1 : 2))))
        }
        finish(span)
    }

    /// An OTLP `Span.Event`.
    private static func event(_ name: String, at time: UInt64, attributes: SpanAttributes) -> OTLPMessage {
        OTLPMessage().with(1, "timeUnixNano", .fixed64(time)).with(2, "name", .string(name))
            .with(3, "attributes", repeated: OTLPMessage.attributes(attributes))
    }

    /// OTLP's `SpanKind` number of `kind`.
    private static func kindNumber(_ kind: SpanKind) -> UInt64 {
        switch kind {
        case .internal: 1
        case .server: 2
        case .client: 3
        case .producer: 4
        case .consumer: 5
        }
    }
}
