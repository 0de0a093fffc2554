import Foundation

/// New Relic's Metric API (`POST /metric/v1`, the license key in `X-License-Key`): every interval the gauges
/// imgproxy's Go agent records as custom metrics, `imgproxy/workers`, `imgproxy/requests_in_progress`,
/// `imgproxy/images_in_progress` and `imgproxy/workers_utilization`, with the attributes `appName` and each label
/// (imgproxy's `IMGPROXY_NEW_RELIC_KEY`, `_APP_NAME`, `_LABELS`).
public struct NewRelicMonitoring: Sendable {
    /// The license key.
    public var key: String
    /// The application's name (default `imgproxy`).
    public var appName: String
    /// The labels, `key1=value1;key2=value2` in imgproxy's variable.
    public var labels: [String: String]
    /// The Metric API's base URL: `https://metric-api.newrelic.com`, `https://metric-api.eu.newrelic.com` for an EU
    /// key (one starting `eu`), or a host of your own.
    public var endpoint: URL

    /// Reporting with `key` for `appName`, to `endpoint` (New Relic's of the key's region when `nil`).
    public init(key: String, appName: String = "imgproxy", labels: [String: String] = [:], endpoint: URL? = nil) {
        self.key = key
        self.appName = appName
        self.labels = labels
        self.endpoint = endpoint ?? Self.metricAPI(key: key)
    }

    /// New Relic's Metric API host for `key`: the EU one for a key of the EU region (`eu01xx…`).
    public static func metricAPI(key: String) -> URL {
        let eu = key.lowercased().hasPrefix("eu")
        return URL(string: eu ? "https://metric-api.eu.newrelic.com" : "https://metric-api.newrelic.com")!
    }

    /// The URL the metrics are posted to.
    var metricsURL: String {
        let base = endpoint.absoluteString
        return (base.hasSuffix("/") ? String(base.dropLast()) : base) + "/metric/v1"
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
