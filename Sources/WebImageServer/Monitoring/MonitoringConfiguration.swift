/// Where the server reports imgproxy's gauges every ``interval`` (imgproxy's `monitoring/datadog` additional
/// metrics, `monitoring/cloudwatch` and `monitoring/newrelic`'s custom metrics), through
/// ``ImageServer/makeMonitoringService()``: nothing by default.
///
/// Sending never delays or fails a request: a reading is taken and sent on a task of its own, each send bounded by
/// a timeout, and an endpoint that does not answer loses that reading (logged at most once a minute).
public struct MonitoringConfiguration: Sendable {
    /// CloudWatch's `PutMetricData` (imgproxy's `IMGPROXY_CLOUD_WATCH_SERVICE_NAME`), or `nil`.
    public var cloudWatch: CloudWatchMonitoring?
    /// A DogStatsD agent (imgproxy's `IMGPROXY_DATADOG_ENABLE_ADDITIONAL_METRICS`), or `nil`.
    public var dogStatsD: DogStatsDMonitoring?
    /// New Relic's Metric API (imgproxy's `IMGPROXY_NEW_RELIC_KEY`), or `nil`.
    public var newRelic: NewRelicMonitoring?
    /// The time between two readings: 10 s, as imgproxy's (a whole number of milliseconds, at least 1).
    public var interval: Duration = .seconds(10)

    /// Nothing reported.
    public init() {}

    /// Whether anything is reported.
    var isEnabled: Bool { cloudWatch != nil || dogStatsD != nil || newRelic != nil }
}

extension MonitoringConfiguration {
    /// Checks the interval (1 ms to a day), the agent's port, New Relic's account and CloudWatch's names.
    func validate() throws(ImageServerConfigurationError) {
        try ImageServerConfigurationError.check(
            interval, in: .milliseconds(1) ... .seconds(86_400), "monitoring-interval", "must be 1 ms to 1 day")
        if let dogStatsD {
            try ImageServerConfigurationError.check(
                dogStatsD.port, in: 1...65_535, "DD_DOGSTATSD_PORT", "must be 1-65535")
            guard !dogStatsD.host.isEmpty else { throw ImageServerConfigurationError("DD_AGENT_HOST", "is empty") }
        }
        if let newRelic, newRelic.key.isEmpty || newRelic.appName.isEmpty {
            throw ImageServerConfigurationError("new-relic", "needs a key and an application name")
        }
        if let id = newRelic?.accountID,
            id.isEmpty || id.utf8.count > 20 || !id.utf8.allSatisfy({ (48...57).contains($0) })
        {
            throw ImageServerConfigurationError("new-relic-account-id", "must be the account's number")
        }
        if let cloudWatch {
            guard !cloudWatch.serviceName.isEmpty, !cloudWatch.namespace.isEmpty, !cloudWatch.region.isEmpty else {
                throw ImageServerConfigurationError("cloud-watch", "needs a service name, a namespace and a region")
            }
        }
    }
}
