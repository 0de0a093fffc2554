/// A DogStatsD agent that gets imgproxy's gauges over UDP (imgproxy's
/// `IMGPROXY_DATADOG_ENABLE_ADDITIONAL_METRICS`): `imgproxy.workers`, `imgproxy.requests_in_progress`,
/// `imgproxy.images_in_progress` and `imgproxy.workers_utilization`, tagged `service:` and `version:` as imgproxy's
/// client tags them (imgproxy's `imgproxy.vips.*` gauges have no counterpart: there is no libvips here).
public struct DogStatsDMonitoring: Sendable {
    /// The agent's host (`DD_AGENT_HOST`, default `localhost`).
    public var host: String
    /// The agent's DogStatsD port (`DD_DOGSTATSD_PORT`, default 8125).
    public var port: Int
    /// The tags of every gauge, `service:imgproxy` and `version:…` in imgproxy's.
    public var tags: [String]

    /// The agent at `host:port`, each gauge tagged with `tags`.
    public init(host: String = "localhost", port: Int = 8125, tags: [String] = []) {
        self.host = host
        self.port = port
        self.tags = tags
    }

    /// The datagram of one reading: one line per gauge, `name:value|g|#tag,tag`.
    func datagram(_ gauges: MonitoringGauges.Snapshot) -> String {
        let tagText = tags.isEmpty ? "" : "|#" + tags.map(Self.cleaned).joined(separator: ",")
        let lines = [
            ("imgproxy.workers", gauges.workers), ("imgproxy.requests_in_progress", gauges.requestsInProgress),
            ("imgproxy.images_in_progress", gauges.imagesInProgress),
            ("imgproxy.workers_utilization", gauges.workersUtilization),
        ]
        return lines.map { "\($0.0):\(MetricNumber.text($0.1))|g\(tagText)" }.joined(separator: "\n")
    }

    /// `tag` without the characters that end a tag or a line (`,`, `|`, newlines), as DogStatsD clients drop them.
    private static func cleaned(_ tag: String) -> String {
        String(tag.filter { $0 != "," && $0 != "|" && !$0.isNewline })
    }
}
