/// The tracing rows of ``Settings``: the collector (`--otel-endpoint`, `WEBIMAGE_OTEL_ENDPOINT`) and imgproxy's
/// `IMGPROXY_OPEN_TELEMETRY_ENABLE`, which turns tracing on with the `OTEL_*` variables' collector (the OpenTelemetry
/// default, `http://localhost:4318`, when none names one).
extension Settings {
    static let otelEndpoint = Setting<String>("otel-endpoint", .text)
    static let openTelemetry = Setting<Bool>(nil, .boolean, imgproxy: ["IMGPROXY_OPEN_TELEMETRY_ENABLE"])

    /// The tracing settings, for ``all``.
    static let tracing: [any SettingVariables] = [otelEndpoint, openTelemetry]
}
