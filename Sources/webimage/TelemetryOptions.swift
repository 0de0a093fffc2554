import ArgumentParser
import CoreMetrics
import Foundation
import Logging
import ServiceLifecycle
import WebImageServer

#if WEBIMAGE_OTEL
    import OTel
#endif

/// `webimage serve`'s telemetry: the metrics' namespace, and traces (a span for each request and its stages), exported
/// with swift-otel over OTLP/gRPC or OTLP/HTTP (``OTLPEnvironment``) when a collector is named, with the metrics and the log lines too when asked, and
/// nothing at all otherwise.
struct TelemetryOptions: ParsableArguments {
    /// What ``bootstrap(environment:)`` set up: the service exporting it all, and which signals besides traces.
    struct Export {
        let service: any Service
        let metrics: Bool
        let logs: Bool
    }

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
                + "IMGPROXY_OPEN_TELEMETRY_ENABLE, over gRPC unless OTEL_EXPORTER_OTLP_PROTOCOL says otherwise, as "
                + "imgproxy; the other OTEL_* variables (headers, compression, timeout, insecure, sampler, service "
                + "name) and IMGPROXY_OPEN_TELEMETRY_SERVER_CERT, _CLIENT_CERT, _CLIENT_KEY are honoured.",
            valueName: "URL"))
    var otelEndpoint: String?
    @Flag(
        inversion: .prefixedNo,
        help: "Pass the trace context on to origins (default: off; IMGPROXY_OPEN_TELEMETRY_PROPAGATE_EXTERNAL).")
    var openTelemetryPropagateExternal: Bool?
    @Flag(
        inversion: .prefixedNo,
        help: "With a collector, export the metrics to it too (default: off; IMGPROXY_OPEN_TELEMETRY_ENABLE_METRICS).")
    var openTelemetryEnableMetrics: Bool?
    @Flag(
        inversion: .prefixedNo,
        help: "With a collector, export the log lines to it too (default: off; IMGPROXY_OPEN_TELEMETRY_ENABLE_LOGS).")
    var openTelemetryEnableLogs: Bool?

    /// The variables that name a collector, each of which turns tracing on.
    static let endpointVariables = ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"]

    /// Sets `configuration.metricsNamespace` and whether origins get the trace context.
    func apply(to configuration: inout ImageServerConfiguration) throws {
        if let namespace = try Settings.metricsNamespace.resolve(metricsNamespace) {
            configuration.metricsNamespace = namespace
        }
        configuration.propagatesTraceContextToOrigins =
            try Settings.propagateExternal.resolve(openTelemetryPropagateExternal) ?? false
    }

    /// The address of the metrics' own listener, when one is asked for.
    func metricsAddress() throws -> BindAddress? { try Settings.prometheusBind.resolve(parsing: prometheusBind) }

    /// Bootstraps swift-distributed-tracing with swift-otel's tracer when a collector is named (and swift-metrics and
    /// swift-log with its exporters when the metrics and logs are asked for), and returns the service that exports
    /// in batches (run it beside the server: it sends what is left on graceful shutdown); `nil` when none is named.
    /// Call once, before anything that makes an HTTP client.
    func bootstrap(environment: [String: String]) throws -> Export? {
        var environment = environment
        let endpoint = try Settings.otelEndpoint.resolve(otelEndpoint)
        let named = Self.endpointVariables.contains { !(environment[$0] ?? "").isEmpty }
        let imgproxyEnabled = try Settings.openTelemetry.resolve(nil) ?? false
        guard endpoint != nil || named || imgproxyEnabled else { return nil }
        if let endpoint {
            guard let url = URL(string: endpoint), url.scheme == "http" || url.scheme == "https", url.host != nil
            else { throw ValidationError("--otel-endpoint: not an http(s) URL: \(endpoint)") }
            // The flag wins over the OTEL_* variables; as OTEL_EXPORTER_OTLP_ENDPOINT, it is a base URL, of an
            // OTLP/HTTP collector unless OTEL_EXPORTER_OTLP_PROTOCOL says otherwise.
            environment["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] = nil
            environment["OTEL_EXPORTER_OTLP_ENDPOINT"] = endpoint
            if (environment["OTEL_EXPORTER_OTLP_PROTOCOL"] ?? "").isEmpty {
                environment["OTEL_EXPORTER_OTLP_PROTOCOL"] = "http/protobuf"
            }
        }
        let metrics = try Settings.enableMetrics.resolve(openTelemetryEnableMetrics) ?? false
        let logs = try Settings.enableLogs.resolve(openTelemetryEnableLogs) ?? false
        let certificates = OTLPEnvironment.Certificates(
            server: try Settings.serverCert.resolve(nil), client: try Settings.clientCert.resolve(nil),
            key: try Settings.clientKey.resolve(nil))
        let otlp = try OTLPEnvironment(environment, certificates: certificates)
        let service = try Self.exporter(environment: otlp.variables, metrics: metrics, logs: logs)
        return Export(service: service, metrics: metrics, logs: logs)
    }

    /// `configuration` with what `export` sends besides traces: every metric recorded into the bootstrapped metrics
    /// exporter too, and every log line (the request lines included) into the bootstrapped log exporter too.
    static func apply(_ export: Export, to configuration: inout ImageServerConfiguration) {
        configuration.tracesRequests = true
        if export.metrics { configuration.metricsExporter = MetricsSystem.factory }
        guard export.logs else { return }
        let level = configuration.logger.logLevel
        let local = configuration.logger.handler
        // A logger made without a handler takes the one swift-otel bootstrapped.
        let exported = {
            var logger = Logger(label: configuration.logger.label)
            logger.logLevel = level
            return logger
        }()
        configuration.logger = Logger(label: configuration.logger.label) { _ in
            MultiplexLogHandler([local, exported.handler])
        }
        configuration.logger.logLevel = level
        if let lines = configuration.requestLog {
            configuration.requestLog = { entry in
                lines(entry)
                exported.info("request", metadata: entry.metadata)
            }
        }
    }

    #if WEBIMAGE_OTEL
        /// swift-otel's tracer bootstrapped, with its metrics and log exporters when asked, the `OTEL_*` variables of
        /// `environment` applied.
        private static func exporter(environment: [String: String], metrics: Bool, logs: Bool) throws -> any Service {
            var configuration = OTel.Configuration.default
            configuration.serviceName = "webimage"
            configuration.diagnosticLogLevel = .warning
            configuration.logs.enabled = logs
            configuration.metrics.enabled = metrics
            do {
                return try OTel.bootstrap(configuration: configuration, environment: environment)
            } catch {
                throw ValidationError("tracing: \(error)")
            }
        }
    #else
        /// A build without swift-otel (`WEBIMAGE_NO_OTEL`, the sanitizer builds) cannot export spans.
        private static func exporter(environment: [String: String], metrics: Bool, logs: Bool) throws -> any Service {
            throw ValidationError("tracing: this build of webimage has no OTLP exporter (built with WEBIMAGE_NO_OTEL)")
        }
    #endif
}
