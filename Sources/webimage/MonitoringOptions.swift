import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import WebImageServer
import WebImageStores

/// `webimage serve`'s monitoring as imgproxy's: Datadog traces (`IMGPROXY_DATADOG_ENABLE`) and gauges over
/// DogStatsD (`IMGPROXY_DATADOG_ENABLE_ADDITIONAL_METRICS`), with the agent's address from the `DD_*` variables, and
/// CloudWatch's gauges (`IMGPROXY_CLOUD_WATCH_SERVICE_NAME`) with the AWS credential chain, and New Relic's custom
/// metrics, transactions and errors (`IMGPROXY_NEW_RELIC_KEY`) through its Metric, Trace and Event APIs.
struct MonitoringOptions: ParsableArguments {
    @Flag(
        inversion: .prefixedNo,
        help: ArgumentHelp(
            "Send request spans to the Datadog agent named by DD_TRACE_AGENT_URL, else DD_AGENT_HOST and "
                + "DD_TRACE_AGENT_PORT (default: off; IMGPROXY_DATADOG_ENABLE)."))
    var datadog: Bool?
    @Flag(
        inversion: .prefixedNo,
        help: ArgumentHelp(
            "With --datadog, also send imgproxy's gauges over DogStatsD to DD_AGENT_HOST:DD_DOGSTATSD_PORT "
                + "every 10 s (default: off; IMGPROXY_DATADOG_ENABLE_ADDITIONAL_METRICS)."))
    var datadogAdditionalMetrics: Bool?
    @Flag(
        inversion: .prefixedNo,
        help: ArgumentHelp(
            "With --datadog, pass x-datadog-* trace headers on to origins (default: off; "
                + "IMGPROXY_DATADOG_PROPAGATE_EXTERNAL)."))
    var datadogPropagateExternal: Bool?
    @Option(
        help: ArgumentHelp(
            "Send imgproxy's gauges to CloudWatch every 10 s with this ServiceName dimension "
                + "(IMGPROXY_CLOUD_WATCH_SERVICE_NAME; credentials as the AWS SDK finds them).",
            valueName: "NAME"))
    var cloudWatchServiceName: String?
    @Option(help: ArgumentHelp("CloudWatch's namespace (default: imgproxy).", valueName: "NAME"))
    var cloudWatchNamespace: String?
    @Option(
        help: ArgumentHelp(
            "CloudWatch's region (default: AWS_REGION, AWS_DEFAULT_REGION, the profile's, else us-west-1).",
            valueName: "REGION"))
    var cloudWatchRegion: String?
    @Option(
        help: ArgumentHelp(
            "Send imgproxy's gauges to New Relic's Metric API every 10 s with this license key "
                + "(IMGPROXY_NEW_RELIC_KEY).",
            valueName: "KEY"))
    var newRelicKey: String?
    @Option(help: ArgumentHelp("New Relic's appName attribute (default: imgproxy).", valueName: "NAME"))
    var newRelicAppName: String?
    @Option(help: ArgumentHelp("New Relic's attributes, key1=value1;key2=value2.", valueName: "LABELS"))
    var newRelicLabels: String?
    @Flag(
        inversion: .prefixedNo,
        help: ArgumentHelp(
            "With --new-relic-key, pass traceparent, tracestate and newrelic trace headers on to origins "
                + "(default: off; IMGPROXY_NEW_RELIC_PROPAGATE_EXTERNAL)."))
    var newRelicPropagateExternal: Bool?
    @Option(
        name: .customLong("new-relic-account-id"),
        help: ArgumentHelp(
            "New Relic's account number, instead of the one learned from New Relic's collector at start: errors "
                + "go to its Event API, and the trace headers carry it.",
            valueName: "ID"))
    var newRelicAccountID: String?
    @Option(
        help: ArgumentHelp(
            "One base URL for New Relic's collector, Metric, Trace and Event APIs instead of New Relic's hosts "
                + "(collector, metric-api, trace-api, insights-collector; the key's region's).",
            valueName: "URL"))
    var newRelicHost: String?
    @Option(
        help: ArgumentHelp(
            "Seconds between two reports of the gauges to CloudWatch and DogStatsD (default: 10, as imgproxy).",
            valueName: "SECONDS"))
    var monitoringInterval: Double?

    /// Whether Datadog tracing is on.
    func datadogEnabled() throws -> Bool { try Settings.datadog.resolve(datadog) ?? false }

    /// Sets where imgproxy's gauges go (CloudWatch, DogStatsD, New Relic).
    func apply(to configuration: inout ImageServerConfiguration) throws {
        configuration.monitoring.cloudWatch = try cloudWatch(ProcessInfo.processInfo.environment)
        configuration.monitoring.newRelic = try newRelic()
        if let seconds = try Settings.monitoringInterval.resolve(monitoringInterval) {
            guard seconds.isFinite, seconds >= 0.001, seconds <= 86_400 else {
                throw ValidationError("--monitoring-interval must be between 0.001 and 86400 seconds")
            }
            configuration.monitoring.interval = .milliseconds(Int64(seconds * 1000))
        }
        guard try datadogEnabled() else { return }
        if try Settings.datadogAdditionalMetrics.resolve(datadogAdditionalMetrics) ?? false {
            let port = try Self.port(Settings.ddDogStatsDPort, default: 8125)
            configuration.monitoring.dogStatsD = DogStatsDMonitoring(
                host: try Settings.ddAgentHost.resolve(nil) ?? "localhost", port: port,
                tags: ["service:" + (try service()), "version:" + (try version())])
        }
    }

    /// The Datadog tracer when Datadog is on, else `nil`.
    func datadogTracer(logger: Logger) throws -> DatadogTracer? {
        guard try datadogEnabled() else { return nil }
        return DatadogTracer(
            agent: try agentURL(), service: try service(), environment: try Settings.ddEnvironment.resolve(nil),
            version: try version(), logger: logger)
    }

    /// The trace agent's base URL: `DD_TRACE_AGENT_URL`, else `http://DD_AGENT_HOST:DD_TRACE_AGENT_PORT`.
    func agentURL() throws -> URL {
        if let text = try Settings.ddTraceAgentURL.resolve(nil) {
            guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https", url.host != nil else {
                throw ValidationError("DD_TRACE_AGENT_URL=\(text): must be an http(s) URL (Unix sockets are not read)")
            }
            return url
        }
        let host = try Settings.ddAgentHost.resolve(nil) ?? "localhost"
        let port = try Self.port(Settings.ddTraceAgentPort, default: 8126)
        let bracketed = host.contains(":") ? "[\(host)]" : host
        guard let url = URL(string: "http://\(bracketed):\(port)") else {
            throw ValidationError("DD_AGENT_HOST=\(host): not a host name or address")
        }
        return url
    }

    /// New Relic's settings when a license key is given.
    private func newRelic() throws -> NewRelicMonitoring? {
        guard let key = try Settings.newRelicKey.resolve(newRelicKey), !key.isEmpty else { return nil }
        var endpoint: URL?
        if let text = try Settings.newRelicHost.resolve(newRelicHost) {
            guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https", url.host != nil else {
                throw ValidationError("--new-relic-host: not an http(s) URL: \(text)")
            }
            endpoint = url
        }
        return NewRelicMonitoring(
            key: key, appName: try Settings.newRelicAppName.resolve(newRelicAppName) ?? "imgproxy",
            labels: try Settings.newRelicLabels.resolve(parsing: newRelicLabels) ?? [:],
            accountID: try Settings.newRelicAccountID.resolve(newRelicAccountID), endpoint: endpoint)
    }

    private func service() throws -> String { try Settings.ddService.resolve(nil) ?? "imgproxy" }

    private func version() throws -> String { try Settings.ddVersion.resolve(nil) ?? FetchSettings.currentVersion }

    private static func port(_ setting: Setting<Int>, default value: Int) throws -> Int {
        let port = try setting.resolve(nil) ?? value
        guard (1...65_535).contains(port) else {
            throw ValidationError("\(setting.names.first ?? "port")=\(port): must be 1-65535")
        }
        return port
    }

    /// CloudWatch's settings when a service name is given: the region of the flag, else of the AWS chain (imgproxy's
    /// `us-west-1` when none names one), the endpoint of `AWS_ENDPOINT_URL_CLOUDWATCH` or `AWS_ENDPOINT_URL`, the
    /// credentials of the AWS chain.
    private func cloudWatch(_ environment: [String: String]) throws -> CloudWatchMonitoring? {
        guard let name = try Settings.cloudWatchServiceName.resolve(cloudWatchServiceName), !name.isEmpty else {
            return nil
        }
        let aws = S3Environment(environment)
        let resolution: S3Environment.Resolution
        do {
            resolution = try aws.resolve(.init(region: try Settings.cloudWatchRegion.resolve(cloudWatchRegion)))
        } catch { throw ValidationError("CloudWatch: \(error)") }
        var endpoint: URL?
        let ignores = ["true", "1"].contains(aws.value("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS")?.lowercased() ?? "")
        if !ignores, let text = aws.value("AWS_ENDPOINT_URL_CLOUDWATCH") ?? aws.value("AWS_ENDPOINT_URL") {
            guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https", url.host != nil else {
                throw ValidationError("CloudWatch: the endpoint \(text) is not an http(s) URL")
            }
            endpoint = url
        }
        return CloudWatchMonitoring(
            serviceName: name, namespace: try Settings.cloudWatchNamespace.resolve(cloudWatchNamespace) ?? "imgproxy",
            region: resolution.regionSource == "default" ? "us-west-1" : resolution.region, endpoint: endpoint,
            credentials: resolution.credentials)
    }
}

extension MonitoringOptions {
    /// New Relic's tracer and Datadog's, each when it is on (New Relic's first, as imgproxy's monitors), each with its
    /// `_PROPAGATE_EXTERNAL`, and the services that send their spans.
    func tracers(for configuration: ImageServerConfiguration) throws -> ServeTracers {
        var tracers = ServeTracers()
        if let settings = configuration.monitoring.newRelic {
            tracers.add(
                NewRelicTracer(settings, logger: configuration.logger),
                propagatesToOrigins: try Settings.newRelicPropagateExternal.resolve(newRelicPropagateExternal) ?? false)
        }
        if let tracer = try datadogTracer(logger: configuration.logger) {
            tracers.add(
                tracer,
                propagatesToOrigins: try Settings.datadogPropagateExternal.resolve(datadogPropagateExternal) ?? false)
        }
        return tracers
    }
}
