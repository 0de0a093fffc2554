import Foundation

/// New Relic (imgproxy's `IMGPROXY_NEW_RELIC_KEY`, `_APP_NAME`, `_LABELS`): every interval the gauges imgproxy's Go
/// agent records as custom metrics, `imgproxy/workers`, `imgproxy/requests_in_progress`, `imgproxy/images_in_progress`
/// and `imgproxy/workers_utilization`, to the Metric API (`POST /metric/v1`, the license key in `X-License-Key`),
/// with the attributes `appName` and each label; with a ``NewRelicTracer``, the requests' spans to the Trace API and
/// their errors to the Event API.
public struct NewRelicMonitoring: Sendable {
    /// The license key.
    public var key: String
    /// The application's name (default `imgproxy`).
    public var appName: String
    /// The labels, `key1=value1;key2=value2` in imgproxy's variable.
    public var labels: [String: String]
    /// The account's number, which the Event API's URL and the `tracestate` entry New Relic reads name; `nil` to
    /// learn it from New Relic's collector (``NewRelicTracer`` connects as the Go agent does). Without either, a
    /// request's error is sent on its spans only, and origins get `traceparent` alone.
    public var accountID: String?
    /// One base URL for the collector and the Metric, Trace and Event APIs (a proxy, or a local fake), or `nil` for
    /// New Relic's own hosts of the key's region.
    public var endpoint: URL?

    /// Reporting with `key` for `appName`, to `endpoint` (New Relic's of the key's region when `nil`).
    public init(
        key: String, appName: String = "imgproxy", labels: [String: String] = [:], accountID: String? = nil,
        endpoint: URL? = nil
    ) {
        self.key = key
        self.appName = appName
        self.labels = labels
        self.accountID = accountID
        self.endpoint = endpoint
    }

    /// Whether `key` is a key of the EU region (`eu01xx…`).
    private static func isEU(_ key: String) -> Bool { key.lowercased().hasPrefix("eu") }

    /// New Relic's Metric API host for `key`: the EU one for a key of the EU region (`eu01xx…`).
    public static func metricAPI(key: String) -> URL {
        URL(string: isEU(key) ? "https://metric-api.eu.newrelic.com" : "https://metric-api.newrelic.com")!
    }

    /// New Relic's Trace API host for `key`.
    public static func traceAPI(key: String) -> URL {
        URL(string: isEU(key) ? "https://trace-api.eu.newrelic.com" : "https://trace-api.newrelic.com")!
    }

    /// New Relic's Event API host for `key`.
    public static func eventAPI(key: String) -> URL {
        URL(
            string: isEU(key)
                ? "https://insights-collector.eu01.nr-data.net" : "https://insights-collector.newrelic.com")!
    }

    /// The URL the metrics are posted to.
    var metricsURL: String { Self.join(endpoint ?? Self.metricAPI(key: key), "/metric/v1") }

    /// The URL the spans are posted to.
    var tracesURL: String { Self.join(endpoint ?? Self.traceAPI(key: key), "/trace/v1") }

    /// The URL the error events of `account` are posted to.
    func eventsURL(account: String) -> String {
        Self.join(endpoint ?? Self.eventAPI(key: key), "/v1/accounts/\(account)/events")
    }

    private static func join(_ base: URL, _ path: String) -> String {
        let text = base.absoluteString
        return (text.hasSuffix("/") ? String(text.dropLast()) : text) + path
    }

    /// The Metric API body of one reading taken at `date`: one block, the attributes in `common`.
    func body(_ gauges: MonitoringGauges.Snapshot, at date: Date) throws -> Data {
        let timestamp = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var attributes = ["appName": appName]
        for (name, value) in labels { attributes[name] = value }
        let metrics = [
            ("imgproxy/workers", gauges.workers), ("imgproxy/requests_in_progress", gauges.requestsInProgress),
            ("imgproxy/images_in_progress", gauges.imagesInProgress),
            ("imgproxy/workers_utilization", gauges.workersUtilization),
        ].map { Metric(name: $0.0, type: "gauge", value: $0.1.isFinite ? $0.1 : 0, timestamp: timestamp) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode([Block(common: Common(attributes: attributes), metrics: metrics)])
    }

    /// Parses imgproxy's `IMGPROXY_NEW_RELIC_LABELS`: `key1=value1;key2=value2` (spaces around each trimmed, empty
    /// entries skipped); `nil` for an entry without `=` or with an empty key.
    public static func labels(_ text: String) -> [String: String]? {
        var labels: [String: String] = [:]
        for entry in text.split(separator: ";") {
            let trimmed = entry.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { continue }
            guard let equals = trimmed.firstIndex(of: "=") else { return nil }
            let key = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty else { return nil }
            labels[key] = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        }
        return labels
    }

    private struct Block: Encodable {
        let common: Common
        let metrics: [Metric]
    }

    private struct Common: Encodable {
        let attributes: [String: String]
    }

    private struct Metric: Encodable {
        let name: String
        let type: String
        let value: Double
        let timestamp: Int64
    }
}
