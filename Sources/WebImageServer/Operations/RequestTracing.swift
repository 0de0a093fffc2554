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

    /// Reports a run of `processing` that waited for its slot from `waiting` (imgproxy's `queue` span) and held it
    /// from `admitted` to `end` (`processing`, its stages under it), both children of the current span; without
    /// `admitted`, the wait failed with `error`.
    func reportRun(
        waiting: ContinuousClock.Instant, admitted: ContinuousClock.Instant?, end: ContinuousClock.Instant,
        stages: [StageTime]?, error: ImageServerError?
    ) {
        guard enabled else { return }
        guard let admitted else { return StageSpan.record("queue", from: waiting, to: end, error: error) }
        StageSpan.record("queue", from: waiting, to: admitted)
        StageSpan.record("processing", from: admitted, to: end, error: error) { report(stages) }
    }
}
