import Tracing
import WebImage

/// The spans of a request's stages, recorded only when the server traces requests
/// (``ImageServerConfiguration/tracesRequests``): otherwise a stage runs its body and nothing else.
struct RequestTracing: Sendable {
    /// Whether spans are recorded.
    let enabled: Bool

    /// Runs `body` in a child span of the request's named `name` (the span is `nil` when tracing is off).
    func stage<T, E: Error>(
        _ name: String, kind: SpanKind = .internal, _ body: ((any Span)?) async throws(E) -> T
    ) async throws(E) -> T {
        guard enabled else { return try await body(nil) }
        return try await StageSpan.run(name, kind: kind) { span throws(E) in try await body(span) }
    }

    /// Reports the stages of a processing run as spans, children of the current one.
    func report(_ stages: [StageTime]?) {
        guard enabled, let stages else { return }
        for stage in stages { StageSpan.record(stage.name, from: stage.start, to: stage.end) }
    }
}
