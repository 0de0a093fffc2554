import Tracing
import WebImage

/// What a span of the server's own tracers (``RecordingSpan``, ``OTLPSpan``) changes while it runs, under one lock:
/// its name, its attributes, whether it ended, and what else its tracer keeps of it (`Extra`).
struct SpanState<Extra: Sendable>: Sendable {
    /// The span's fields, as they are when it ends.
    struct Fields: Sendable {
        var name: String
        var attributes: SpanAttributes = [:]
        var extra: Extra
        var ended: Bool
    }

    private let fields: Locked<Fields>

    /// A running span's state; `ended` for a span that records nothing (one not sampled).
    init(name: String, extra: Extra, ended: Bool = false) {
        fields = Locked(Fields(name: name, extra: extra, ended: ended))
    }

    /// The span's name.
    var name: String {
        get { fields.withLock { $0.name } }
        nonmutating set { fields.withLock { $0.name = newValue } }
    }

    /// The span's attributes.
    var attributes: SpanAttributes {
        get { fields.withLock { $0.attributes } }
        nonmutating set { fields.withLock { $0.attributes = newValue } }
    }

    /// Whether the span has not ended.
    var isRecording: Bool { fields.withLock { !$0.ended } }

    /// Changes what the tracer keeps of the span.
    func update(_ change: (inout Extra) -> Void) {
        fields.withLock { change(&$0.extra) }
    }

    /// Marks the span ended and returns its fields; `nil` when it had ended already.
    func end() -> Fields? {
        fields.withLock { fields in
            guard !fields.ended else { return nil }
            fields.ended = true
            return fields
        }
    }
}
