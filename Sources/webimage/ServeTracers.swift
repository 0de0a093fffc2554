import ServiceLifecycle
import Tracing
import WebImageServer

/// `webimage serve`'s tracers, side by side as imgproxy's monitors: New Relic's, Datadog's and OpenTelemetry's, each
/// when it is on, in any combination; each request is a span in every one of them. Each tracer reads its own headers
/// of a request, and writes its own into the requests to origins only with its own `_PROPAGATE_EXTERNAL`; peers of the
/// cluster get every tracer's.
struct ServeTracers {
    /// One tracer, and whether origins get its headers.
    struct Member {
        let tracer: any Tracer
        let propagatesToOrigins: Bool
    }

    /// The tracers, in imgproxy's order (New Relic, Datadog, OpenTelemetry): their spans start in it, and of two
    /// headers of the same name (New Relic's and OpenTelemetry's `traceparent`) the later one's is sent.
    var members: [Member] = []
    /// The services that send the spans, to run beside the server (OpenTelemetry's runs in its exporter's group).
    var services: [any Service] = []

    /// Adds `tracer`, which sends its own spans (a service to run beside the server).
    mutating func add(_ tracer: some Tracer & Service, propagatesToOrigins: Bool) {
        members.append(Member(tracer: tracer, propagatesToOrigins: propagatesToOrigins))
        services.append(tracer)
    }

    /// Makes the tracers the process's (a ``TracerSet`` of them; one alone as it is; nothing without one), turns
    /// request tracing on in `configuration` when there is one, and gives the server those whose headers go to
    /// origins. Call once, before the server makes its HTTP clients.
    func bootstrap(into configuration: inout ImageServerConfiguration) {
        guard !members.isEmpty else { return }
        TracerSet(members.map(\.tracer)).bootstrap()
        configuration.tracesRequests = true
        let propagating = members.filter(\.propagatesToOrigins).map(\.tracer)
        configuration.propagatesTraceContextToOrigins = !propagating.isEmpty
        configuration.originTraceInstrument = propagating.isEmpty ? nil : TracerSet(propagating)
    }
}
