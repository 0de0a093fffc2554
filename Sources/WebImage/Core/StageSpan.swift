import Foundation
import Tracing

/// The spans of the stages a request passes (cache query, download, decode, transform, store), recorded with the
/// active tracer: the one bootstrapped in `InstrumentationSystem`, or bound with `withTracer`. Without either, the
/// no-op tracer records nothing.
package enum StageSpan {
    /// Runs `body` in a child span of the current one named `name`; an error thrown by `body` is recorded on the span
    /// and its status set to error.
    package static func run<T, E: Error>(
        _ name: String, kind: SpanKind = .internal, _ body: (any Span) async throws(E) -> T
    ) async throws(E) -> T {
        let span = startSpan(name, ofKind: kind)
        defer { span.end() }
        let outcome: Result<T, E> = await InstrumentationContext.withValue(span.context) {
            do throws(E) { return .success(try await body(span)) } catch { return .failure(error) }
        }
        if case .failure(let error) = outcome { failed(span, error) }
        return try outcome.get()
    }

    /// Records a span named `name` that ran from `start` to `end`, as a child of the current span, failed with `error`
    /// when there is one: for work done where the task's context does not reach (a thread of a ``WorkQueue``),
    /// reported once it is over. `children` runs with the span as the current one, to record the spans under it.
    package static func record(
        _ name: String, from start: ContinuousClock.Instant, to end: ContinuousClock.Instant,
        error: (any Error)? = nil, children: () -> Void = {}
    ) {
        let now = ContinuousClock.now
        let wallNow = DefaultTracerClock.now
        let span = startSpan(name, at: wallInstant(start, now: now, wallNow: wallNow))
        InstrumentationContext.withValue(span.context) { children() }
        if let error { failed(span, error) }
        span.end(at: wallInstant(end, now: now, wallNow: wallNow))
    }

    /// Marks `span` as failed with `error`.
    package static func failed(_ span: any Span, _ error: any Error) {
        span.recordError(error)
        span.setStatus(SpanStatus(code: .error))
    }

    /// The wall-clock instant of `instant`, from how long before `now` it was.
    static func wallInstant(
        _ instant: ContinuousClock.Instant, now: ContinuousClock.Instant, wallNow: DefaultTracerClock.Instant
    ) -> DefaultTracerClock.Instant {
        let before = (now - instant).components
        let seconds = min(before.seconds, 1 << 32)
        let nanoseconds = UInt64(max(0, seconds * 1_000_000_000 + before.attoseconds / 1_000_000_000))
        let wall = wallNow.nanosecondsSinceEpoch
        return DefaultTracerClock.Instant(nanosecondsSinceEpoch: wall > nanoseconds ? wall - nanoseconds : 0)
    }
}
