import ArgumentParser
import CoreMetrics
import Foundation
import Logging
import ServiceLifecycle
import WebImageServer

/// `webimage serve`'s telemetry: the metrics' namespace, and traces (a span for each request and its stages), exported
/// over OTLP/gRPC or OTLP/HTTP (``OTLPEnvironment``) by the server's own tracer (`OTLPTracer`, bootstrapped with the
/// other vendors' in ``ServeTracers``) when a collector is named, with the log lines (`OTLPLogHandler`) and the metrics
/// (`OTLPMetricsFactory`) too when asked, and nothing at all otherwise.
struct TelemetryOptions: ParsableArguments {
    /// What ``export(environment:)`` set up: the tracer, the service exporting it all, and which signals besides
    /// traces.
    struct Export {
        /// The tracer, to bootstrap (``ServeTracers``).
        let tracer: OTLPTracer
        let service: any Service
        /// The metrics' exporter, when the metrics are exported.
        let metrics: OTLPMetricsFactory?
        /// The log records' exporter, when the logs are exported.
        let logs: OTLPLogHandler.Exporter?
        /// The lowest level of the log records exported (`OTEL_LOG_LEVEL`), when not the log's own.
        let logLevel: Logger.Level?
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
                + "name, propagators, log level) and IMGPROXY_OPEN_TELEMETRY_SERVER_CERT, _CLIENT_CERT, _CLIENT_KEY "
                + "are honoured.",
            valueName: "URL"))
    var otelEndpoint: String?
    @Flag(
        inversion: .prefixedNo,
        help: ArgumentHelp(
            "Pass OpenTelemetry's trace headers on to origins (default: off; "
                + "IMGPROXY_OPEN_TELEMETRY_PROPAGATE_EXTERNAL)."))
    var openTelemetryPropagateExternal: Bool?
    @Flag(
        inversion: .prefixedNo,
        help: "With a collector, export the metrics to it too (default: off; IMGPROXY_OPEN_TELEMETRY_ENABLE_METRICS).")
    var openTelemetryEnableMetrics: Bool?
    @Flag(
        inversion: .prefixedNo,
        help: "With a collector, export the log lines to it too (default: off; IMGPROXY_OPEN_TELEMETRY_ENABLE_LOGS).")
    var openTelemetryEnableLogs: Bool?
    @Option(
        help: ArgumentHelp(
            "How new trace ids are made: xray (AWS X-Ray's form, the default) or random "
                + "(IMGPROXY_OPEN_TELEMETRY_TRACE_ID_GENERATOR).",
            valueName: "NAME"))
    var openTelemetryTraceIdGenerator: String?
    @Option(
        help: ArgumentHelp(
            "The instrumentation scope of the exported log records (default: imgproxy; "
                + "IMGPROXY_OPEN_TELEMETRY_LOGGER_NAME).",
            valueName: "NAME"))
    var openTelemetryLoggerName: String?

    /// The variables that name a collector, each of which turns tracing on.
    static let endpointVariables = ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"]

    /// Sets `configuration.metricsNamespace`.
    func apply(to configuration: inout ImageServerConfiguration) throws {
        if let namespace = try Settings.metricsNamespace.resolve(metricsNamespace) {
            configuration.metricsNamespace = namespace
        }
    }

    /// Whether origins get OpenTelemetry's trace headers (`IMGPROXY_OPEN_TELEMETRY_PROPAGATE_EXTERNAL`).
    func propagatesToOrigins() throws -> Bool {
        try Settings.propagateExternal.resolve(openTelemetryPropagateExternal) ?? false
    }

    /// The address of the metrics' own listener, when one is asked for.
    func metricsAddress() throws -> BindAddress? { try Settings.prometheusBind.resolve(parsing: prometheusBind) }

    /// Makes the OTLP tracer when a collector is named, and the metrics' and the log records' exporters when they are
    /// asked for, and returns them with the service that exports in batches (run it beside the server: it sends what
    /// is left on graceful shutdown); `nil` when none is named. Call once, before anything that makes an HTTP client.
    func export(environment: [String: String]) throws -> Export? {
        var environment = environment
        let endpoint = try Settings.otelEndpoint.resolve(otelEndpoint)
        let named = Self.endpointVariables.contains { !(environment[$0] ?? "").isEmpty }
        let imgproxyEnabled = try Settings.openTelemetry.resolve(nil) ?? false
        // As imgproxy, which reads it with its configuration: a bad value stops the start, tracing on or off.
        let logLevel = try OTLPSDKEnvironment.logLevel(environment)
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
        let generator =
            try Settings.traceIDGenerator.resolve(parsing: openTelemetryTraceIdGenerator) ?? .xray
        let loggerName = try Settings.loggerName.resolve(openTelemetryLoggerName) ?? "imgproxy"
        let certificates = OTLPEnvironment.Certificates(
            server: try Settings.serverCert.resolve(nil), client: try Settings.clientCert.resolve(nil),
            key: try Settings.clientKey.resolve(nil))
        let otlp = try OTLPEnvironment(environment, certificates: certificates)
        let variables = otlp.variables
        let diagnostics = Logger(label: "webimage.otel")
        let resource = OTLPSDKEnvironment.resource(variables)
        let tracer = OTLPTracer(
            transport: try OTLPSignalEnvironment(.traces, variables: variables).transport(), resource: resource,
            generator: generator, sampler: OTLPSDKEnvironment.sampler(variables, logger: diagnostics),
            limits: OTLPSDKEnvironment.limits(variables, prefix: "OTEL_BSP", defaults: .spans),
            propagators: try OTLPSDKEnvironment.propagators(variables), logger: diagnostics)
        var services: [any Service] = [tracer]
        var logExporter: OTLPLogHandler.Exporter?
        if logs {
            let exporter = OTLPLogHandler.Exporter(
                transport: try OTLPSignalEnvironment(.logs, variables: variables).transport(), resource: resource,
                scope: loggerName,
                limits: OTLPSDKEnvironment.limits(variables, prefix: "OTEL_BLRP", defaults: .logRecords),
                logger: diagnostics)
            services.append(exporter)
            logExporter = exporter
        }
        var metricsFactory: OTLPMetricsFactory?
        if metrics {
            let factory = OTLPMetricsFactory(
                transport: try OTLPSignalEnvironment(.metrics, variables: variables).transport(), resource: resource,
                interval: OTLPSDKEnvironment.milliseconds(variables, "OTEL_METRIC_EXPORT_INTERVAL") ?? .seconds(60),
                timeout: OTLPSDKEnvironment.milliseconds(variables, "OTEL_METRIC_EXPORT_TIMEOUT") ?? .seconds(30),
                delta: OTLPSDKEnvironment.deltaTemporality(variables, logger: diagnostics), logger: diagnostics)
            services.append(factory.exporter)
            metricsFactory = factory
        }
        let service = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) },
                logger: diagnostics))
        return Export(tracer: tracer, service: service, metrics: metricsFactory, logs: logExporter, logLevel: logLevel)
    }

    /// `configuration` with what `export` sends besides traces: every metric recorded into the bootstrapped metrics
    /// exporter too, and every log line (the request lines included) into the bootstrapped log exporter too, from
    /// `OTEL_LOG_LEVEL` up (the log's own level by default), whatever the log's own level is, as imgproxy's log hook.
    static func apply(_ export: Export, to configuration: inout ImageServerConfiguration) {
        configuration.tracesRequests = true
        if let metrics = export.metrics { configuration.metricsExporter = metrics }
        guard let exporter = export.logs else { return }
        let local = configuration.logger.handler
        let exported = {
            var logger = Logger(label: configuration.logger.label) { _ in OTLPLogHandler(exporter: exporter) }
            logger.logLevel = export.logLevel ?? configuration.logger.logLevel
            return logger
        }()
        // Each handler keeps its level: the multiplexer hands a line to those whose level it reaches.
        configuration.logger = Logger(label: configuration.logger.label) { _ in
            MultiplexLogHandler([local, exported.handler])
        }
        let lines = configuration.requestLog
        if lines != nil || exported.logLevel <= .info {
            configuration.requestLog = { entry in
                lines?(entry)
                exported.info("request", metadata: entry.metadata)
            }
        }
    }
}
