import AsyncHTTPClient
import Instrumentation
import NIOHTTP1

/// Writes the current trace context (W3C `traceparent`, or whatever the bootstrapped instrument propagates) into the
/// headers of an outgoing request, so an origin or a peer can join the trace.
package struct TraceHeaders: Injector {
    package init() {}

    package func inject(_ value: String, forKey key: String, into headers: inout HTTPHeaders) {
        headers.replaceOrAdd(name: key, value: value)
    }

    /// Adds the current task's trace context to `headers`, as `instrument` writes it; without one, as the
    /// bootstrapped instrument does (nothing when none is).
    package static func add(to headers: inout HTTPHeaders, using instrument: (any Instrument)? = nil) {
        guard let context = InstrumentationContext.current else { return }
        (instrument ?? InstrumentationSystem.instrument).inject(context, into: &headers, using: TraceHeaders())
    }
}

extension HTTPClient.Configuration {
    /// The configuration with AsyncHTTPClient's own request spans off: the loader and the server record the
    /// download as a stage span of their own (`StageSpan`) and propagate the context themselves (`TraceHeaders`).
    package func withoutClientSpans() -> HTTPClient.Configuration {
        var configuration = self
        configuration.tracing.tracer = nil
        return configuration
    }
}
