import WebImageServer

/// The telemetry rows of ``Settings``: the metrics' namespace and second address (imgproxy's
/// `IMGPROXY_PROMETHEUS_NAMESPACE` and `IMGPROXY_PROMETHEUS_BIND`), the
/// collector (`--otel-endpoint`, `WEBIMAGE_OTEL_ENDPOINT`) and imgproxy's `IMGPROXY_OPEN_TELEMETRY_ENABLE`, which turns
/// tracing on with the `OTEL_*` variables' collector (the OpenTelemetry default, `http://localhost:4318`, when none
/// names one), whether metrics and logs are exported to it too (`IMGPROXY_OPEN_TELEMETRY_ENABLE_METRICS`, `_LOGS`)
/// whether origins get the trace context (`IMGPROXY_OPEN_TELEMETRY_PROPAGATE_EXTERNAL`), how trace ids are made
/// (`_TRACE_ID_GENERATOR`, `xray` or `random`), the log records' scope (`_LOGGER_NAME`), the collector's CA and the
/// client's certificate and key as PEM text (`_SERVER_CERT`, `_CLIENT_CERT`, `_CLIENT_KEY`).
extension Settings {
    static let metricsNamespace = Setting<String>(
        "metrics-namespace", .text, imgproxy: ["IMGPROXY_PROMETHEUS_NAMESPACE"])
    static let prometheusBind = Setting<BindAddress>(
        "prometheus-bind", BindAddress.parser, imgproxy: ["IMGPROXY_PROMETHEUS_BIND"])
    static let otelEndpoint = Setting<String>("otel-endpoint", .text)
    static let openTelemetry = Setting<Bool>(nil, .boolean, imgproxy: ["IMGPROXY_OPEN_TELEMETRY_ENABLE"])
    static let enableMetrics = Setting<Bool>(
        "open-telemetry-enable-metrics", .boolean, imgproxy: ["IMGPROXY_OPEN_TELEMETRY_ENABLE_METRICS"])
    static let enableLogs = Setting<Bool>(
        "open-telemetry-enable-logs", .boolean, imgproxy: ["IMGPROXY_OPEN_TELEMETRY_ENABLE_LOGS"])
    static let propagateExternal = Setting<Bool>(
        "open-telemetry-propagate-external", .boolean, imgproxy: ["IMGPROXY_OPEN_TELEMETRY_PROPAGATE_EXTERNAL"])
    static let traceIDGenerator = Setting<TraceIDGenerator>(
        "open-telemetry-trace-id-generator", ValueParser(expected: "xray or random") { TraceIDGenerator(name: $0) },
        imgproxy: ["IMGPROXY_OPEN_TELEMETRY_TRACE_ID_GENERATOR"])
    static let loggerName = Setting<String>(
        "open-telemetry-logger-name", .text, imgproxy: ["IMGPROXY_OPEN_TELEMETRY_LOGGER_NAME"])
    static let serverCert = Setting<String>(nil, .text, imgproxy: ["IMGPROXY_OPEN_TELEMETRY_SERVER_CERT"])
    static let clientCert = Setting<String>(nil, .text, imgproxy: ["IMGPROXY_OPEN_TELEMETRY_CLIENT_CERT"])
    static let clientKey = Setting<String>(nil, .text, imgproxy: ["IMGPROXY_OPEN_TELEMETRY_CLIENT_KEY"])

    /// The telemetry settings, for ``all``.
    static let telemetry: [any SettingVariables] = [
        metricsNamespace, prometheusBind, otelEndpoint, openTelemetry, enableMetrics, enableLogs, propagateExternal,
        traceIDGenerator, loggerName, serverCert, clientCert, clientKey,
    ]
}
