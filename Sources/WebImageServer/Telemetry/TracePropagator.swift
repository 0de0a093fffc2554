import Tracing

/// One of OpenTelemetry's text-map propagators, the formats `OTEL_PROPAGATORS` names (``TracePropagators``): how a
/// request's headers carry a caller's trace (or its baggage) in, and how an outgoing request's headers carry it on.
/// Header names are given in lower case; HTTP's are case-insensitive.
package protocol TracePropagator: Sendable {
    /// Adds to `context` what the headers `header` reads carry in this format: the caller's span (over one another
    /// propagator found before, as in OpenTelemetry's composite propagator), its baggage; nothing when they carry
    /// none or it does not parse.
    func extract(_ header: (String) -> String?, into context: inout ServiceContext)

    /// Writes the current span of `context` (and what goes with it) through `header` (name, value).
    func inject(_ context: ServiceContext, _ header: (String, String) -> Void)
}
