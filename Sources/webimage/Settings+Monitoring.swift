import WebImageServer

/// The monitoring rows of ``Settings``: imgproxy's Datadog (`IMGPROXY_DATADOG_*` and the Datadog agent's own `DD_*`
/// variables, as dd-trace-go reads them), CloudWatch (`IMGPROXY_CLOUD_WATCH_*`) and New Relic (`IMGPROXY_NEW_RELIC_*`)
/// settings.
extension Settings {
    static let datadog = Setting<Bool>("datadog", .boolean, imgproxy: ["IMGPROXY_DATADOG_ENABLE"])
    static let datadogAdditionalMetrics = Setting<Bool>(
        "datadog-additional-metrics", .boolean, imgproxy: ["IMGPROXY_DATADOG_ENABLE_ADDITIONAL_METRICS"])
    static let datadogPropagateExternal = Setting<Bool>(
        "datadog-propagate-external", .boolean, imgproxy: ["IMGPROXY_DATADOG_PROPAGATE_EXTERNAL"])
    static let ddService = Setting<String>(nil, .text, imgproxy: ["DD_SERVICE"])
    static let ddEnvironment = Setting<String>(nil, .text, imgproxy: ["DD_ENV"])
    static let ddVersion = Setting<String>(nil, .text, imgproxy: ["DD_VERSION"])
    static let ddAgentHost = Setting<String>(nil, .text, imgproxy: ["DD_AGENT_HOST"])
    static let ddTraceAgentPort = Setting<Int>(nil, .integer, imgproxy: ["DD_TRACE_AGENT_PORT"])
    static let ddTraceAgentURL = Setting<String>(nil, .text, imgproxy: ["DD_TRACE_AGENT_URL"])
    static let ddDogStatsDPort = Setting<Int>(nil, .integer, imgproxy: ["DD_DOGSTATSD_PORT"])
    static let cloudWatchServiceName = Setting<String>(
        "cloud-watch-service-name", .text, imgproxy: ["IMGPROXY_CLOUD_WATCH_SERVICE_NAME"])
    static let cloudWatchNamespace = Setting<String>(
        "cloud-watch-namespace", .text, imgproxy: ["IMGPROXY_CLOUD_WATCH_NAMESPACE"])
    static let cloudWatchRegion = Setting<String>(
        "cloud-watch-region", .text, imgproxy: ["IMGPROXY_CLOUD_WATCH_REGION"])
    static let newRelicKey = Setting<String>("new-relic-key", .text, imgproxy: ["IMGPROXY_NEW_RELIC_KEY"])
    static let newRelicAppName = Setting<String>(
        "new-relic-app-name", .text, imgproxy: ["IMGPROXY_NEW_RELIC_APP_NAME"])
    static let newRelicLabels = Setting<[String: String]>(
        "new-relic-labels",
        ValueParser(expected: "key1=value1;key2=value2") { NewRelicMonitoring.labels($0) },
        imgproxy: ["IMGPROXY_NEW_RELIC_LABELS"])
    static let newRelicPropagateExternal = Setting<Bool>(
        "new-relic-propagate-external", .boolean, imgproxy: ["IMGPROXY_NEW_RELIC_PROPAGATE_EXTERNAL"])
    static let newRelicAccountID = Setting<String>("new-relic-account-id", .text)
    static let newRelicHost = Setting<String>("new-relic-host", .text)
    static let monitoringInterval = Setting<Double>("monitoring-interval", .number)

    /// The monitoring settings, for ``all``.
    static let monitoring: [any SettingVariables] = [
        datadog, datadogAdditionalMetrics, datadogPropagateExternal, ddService, ddEnvironment, ddVersion, ddAgentHost,
        ddTraceAgentPort, ddTraceAgentURL, ddDogStatsDPort, cloudWatchServiceName, cloudWatchNamespace,
        cloudWatchRegion, newRelicKey, newRelicAppName, newRelicLabels, newRelicPropagateExternal, newRelicAccountID,
        newRelicHost, monitoringInterval,
    ]
}
