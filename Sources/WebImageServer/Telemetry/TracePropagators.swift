import Tracing

/// The propagators `OTEL_PROPAGATORS` lists (comma-separated; `tracecontext,baggage` by default), as OpenTelemetry Go's
/// `autoprop` builds them for imgproxy: `tracecontext` (W3C `traceparent`, `tracestate`), `baggage` (W3C `baggage`),
/// `b3` (B3's single `b3` header), `b3multi` (B3's `x-b3-*` headers), `jaeger` (`uber-trace-id`), `xray`
/// (`X-Amzn-Trace-Id`), `ottrace` (`ot-tracer-*`); `none` anywhere in the list propagates nothing. Each extracts in the
/// list's order, a later one's caller replacing an earlier one's; each injects.
package struct TracePropagators: Sendable {
    /// An `OTEL_PROPAGATORS` list that names a propagator there is none of.
    package struct UnknownName: Error, CustomStringConvertible {
        /// The names that are none of ``TracePropagators/names``.
        package let names: [String]

        package var description: String {
            let known = TracePropagators.names.joined(separator: ", ")
            return "unknown propagator: \(names.joined(separator: ",")) (known: \(known))"
        }
    }

    /// The names a list may hold, `none` last.
    package static let names = ["tracecontext", "baggage", "b3", "b3multi", "jaeger", "xray", "ottrace", "none"]

    /// OpenTelemetry's default: `tracecontext,baggage`.
    package static let `default` = TracePropagators(
        propagators: [TraceContextPropagator(), BaggagePropagator()])

    private let propagators: [any TracePropagator]

    private init(propagators: [any TracePropagator]) { self.propagators = propagators }

    /// The propagators `list` names in its order; none at all when it names `none`.
    ///
    /// - Throws: ``UnknownName`` when a name (compared as it is written, as `autoprop` does) is none of
    ///   ``names``, as imgproxy, which does not start then.
    package init(names list: [String]) throws(UnknownName) {
        var propagators: [any TracePropagator] = []
        var unknown: [String] = []
        for name in list {
            switch name {
            case "none":
                self.init(propagators: [])
                return
            case "tracecontext": propagators.append(TraceContextPropagator())
            case "baggage": propagators.append(BaggagePropagator())
            case "b3": propagators.append(B3Propagator(multipleHeaders: false))
            case "b3multi": propagators.append(B3Propagator(multipleHeaders: true))
            case "jaeger": propagators.append(JaegerPropagator())
            case "xray": propagators.append(XRayPropagator())
            case "ottrace": propagators.append(OTTracePropagator())
            default: unknown.append(name)
            }
        }
        guard unknown.isEmpty else { throw UnknownName(names: unknown) }
        self.init(propagators: propagators)
    }

    /// Whether the list propagates nothing (`none`).
    package var isEmpty: Bool { propagators.isEmpty }

    /// Every propagator's extraction, in order.
    func extract(_ header: (String) -> String?, into context: inout ServiceContext) {
        for propagator in propagators { propagator.extract(header, into: &context) }
    }

    /// Every propagator's injection, in order, of the current span of `context`; nothing without one (as imgproxy's
    /// `InjectHeaders`, which injects only within a request's span).
    func inject(_ context: ServiceContext, _ header: (String, String) -> Void) {
        guard context.otlpSpan != nil else { return }
        for propagator in propagators { propagator.inject(context, header) }
    }
}
