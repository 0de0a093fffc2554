import ServiceLifecycle

extension ImageServer {
    /// The service that reports imgproxy's gauges every interval to where ``ImageServerConfiguration/monitoring``
    /// names (CloudWatch, a DogStatsD agent, New Relic), until the service group shuts down; `nil` when it names nothing
    /// (the gauges kept for `--vips-leak-check` alone need no service). Run it
    /// beside the application: it never delays a request, and an endpoint that does not answer only loses readings.
    public func makeMonitoringService() -> (any Service)? {
        guard let gauges, configuration.monitoring.isEnabled else { return nil }
        return MonitoringService(
            configuration: configuration.monitoring, gauges: gauges, log: DropLog(logger: configuration.logger))
    }
}
