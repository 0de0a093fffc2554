import ArgumentParser
import Foundation
import ServiceLifecycle
import WebImageServer

#if WEBIMAGE_OTEL
    import OTel
#endif

/// `webimage serve`'s telemetry: the metrics' namespace, and traces (a span for each request and its stages), exported
/// with swift-otel over OTLP/HTTP when a collector is named, and nothing at all otherwise.
struct TelemetryOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Start every /metrics name with NAME_, as imgproxy's IMGPROXY_PROMETHEUS_NAMESPACE does (default: none).",
            valueName: "NAME"))
    var metricsNamespace: String?
    @Option(
        help: ArgumentHelp(
            "Also serve GET /metrics alone on this address, as imgproxy's IMGPROXY_PROMETHEUS_BIND does.",
            valueName: "HOST:PORT"))
    var prometheusBind: String?

    @Option(
        help: ArgumentHelp(
            "Export request spans over OTLP/HTTP to this collector (its base URL; /v1/traces is added). Also on "
                + "with OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or "
                + "IMGPROXY_OPEN_TELEMETRY_ENABLE; the other OTEL_* variables (protocol, headers, compression, "
                + "timeout, sampler, service name) are honoured.",
            valueName: "URL"))
    var otelEndpoint: String?

    /// The variables that name a collector, each of which turns tracing on.
    static let endpointVariables = ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"]

    /// Sets `configuration.metricsNamespace`.
    func apply(to configuration: inout ImageServerConfiguration) throws {
        if let namespace = try Settings.metricsNamespace.resolve(metricsNamespace) {
            configuration.metricsNamespace = namespace
        }
    }

    /// The address of the metrics' own listener, when one is asked for.
    func metricsAddress() throws -> BindAddress? { try Settings.prometheusBind.resolve(parsing: prometheusBind) }

    /// Bootstraps swift-distributed-tracing with swift-otel's tracer when a collector is named, and returns the
    /// service that exports spans in batches (run it beside the server: it sends what is left on graceful
    /// shutdown); `nil` when none is named. Call once, before anything that makes an HTTP client.
    func bootstrap(environment: [String: String]) throws -> (any Service)? {
        var environment = environment
        let endpoint = try Settings.otelEndpoint.resolve(otelEndpoint)
        let named = Self.endpointVariables.contains { !(environment[$0] ?? "").isEmpty }
        let imgproxyEnabled = try Settings.openTelemetry.resolve(nil) ?? false
        guard endpoint != nil || named || imgproxyEnabled else { return nil }
        if let endpoint {
            guard let url = URL(string: endpoint), url.scheme == "http" || url.scheme == "https", url.host != nil
            else { throw ValidationError("--otel-endpoint: not an http(s) URL: \(endpoint)") }
            // The flag wins over the OTEL_* variables; as OTEL_EXPORTER_OTLP_ENDPOINT, it is a base URL.
            environment["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] = nil
            environment["OTEL_EXPORTER_OTLP_ENDPOINT"] = endpoint
        }
        return try Self.exporter(environment: environment)
    }

    #if WEBIMAGE_OTEL
        /// swift-otel's tracer bootstrapped, traces only, the `OTEL_*` variables of `environment` applied.
        private static func exporter(environment: [String: String]) throws -> any Service {
            var configuration = OTel.Configuration.default
            configuration.serviceName = "webimage"
            configuration.diagnosticLogLevel = .warning
            configuration.logs.enabled = false
            configuration.metrics.enabled = false
            do {
                return try OTel.bootstrap(configuration: configuration, environment: environment)
            } catch {
                throw ValidationError("tracing: \(error)")
            }
        }
    #else
        /// A build without swift-otel (`WEBIMAGE_NO_OTEL`, the sanitizer builds) cannot export spans.
        private static func exporter(environment: [String: String]) throws -> any Service {
            throw ValidationError("tracing: this build of webimage has no OTLP exporter (built with WEBIMAGE_NO_OTEL)")
        }
    #endif
}
