import Foundation

/// The body of the agent protocol's `connect` (version 17), as imgproxy's Go agent writes it: a JSON array holding
/// one object with the process's id, the language `go`, the agent's version, the host, the application's names
/// (`app_name`, split at `;`, and the whole name as `identifier`), the labels, the settings, the environment, the
/// host's utilization, the `NEW_RELIC_METADATA_*` variables and the event harvest limits.
struct NewRelicConnectPayload: Encodable {
    let pid: Int32
    let language = "go"
    let agentVersion: String
    let host: String
    let appName: [String]
    let identifier: String
    let highSecurity = false
    let labels: [Label]
    let settings: [String: NewRelicValue]
    let environment: [[NewRelicValue]]
    let utilization: Utilization
    let metadata: [String: String]
    let eventHarvestConfig = HarvestConfig()

    private enum CodingKeys: String, CodingKey {
        case pid, language, host, identifier, labels, settings, environment, utilization, metadata
        case agentVersion = "agent_version"
        case appName = "app_name"
        case highSecurity = "high_security"
        case eventHarvestConfig = "event_harvest_config"
    }

    /// One label, as the agent lists them.
    struct Label: Encodable {
        let labelType: String
        let labelValue: String

        private enum CodingKeys: String, CodingKey {
            case labelType = "label_type"
            case labelValue = "label_value"
        }
    }

    /// The host, as the agent's utilization data describes it.
    struct Utilization: Encodable {
        let metadataVersion = 5
        let logicalProcessors: Int
        let totalRAMMiB: UInt64
        let hostname: String

        private enum CodingKeys: String, CodingKey {
            case hostname
            case metadataVersion = "metadata_version"
            case logicalProcessors = "logical_processors"
            case totalRAMMiB = "total_ram_mib"
        }
    }

    /// The Go agent's default harvest: every 60 s, its default limits of each event type.
    struct HarvestConfig: Encodable {
        let reportPeriodMs = 60_000
        let harvestLimits = [
            "analytic_event_data": 10_000, "custom_event_data": 30_000, "log_event_data": 10_000,
            "error_event_data": 100, "span_event_data": 2_000,
        ]

        private enum CodingKeys: String, CodingKey {
            case reportPeriodMs = "report_period_ms"
            case harvestLimits = "harvest_limits"
        }
    }

    /// The payload of this process for `settings`, with the `NEW_RELIC_METADATA_*` variables of `environment`.
    init(settings: NewRelicMonitoring, environment variables: [String: String], version: String) {
        let process = ProcessInfo.processInfo
        let hostname = String(process.hostName.utf8.prefix(255)) ?? "unknown"
        pid = process.processIdentifier
        agentVersion = version
        host = hostname
        appName = settings.appName.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        identifier = settings.appName
        labels = settings.labels.sorted { $0.key < $1.key }.map { Label(labelType: $0.key, labelValue: $0.value) }
        var configured: [String: NewRelicValue] = ["AppName": .string(settings.appName), "HighSecurity": .bool(false)]
        for (name, value) in settings.labels { configured["Labels." + name] = .string(value) }
        self.settings = configured
        #if arch(arm64)
            let architecture = "arm64"
        #else
            let architecture = "amd64"
        #endif
        #if os(macOS)
            let system = "darwin"
        #else
            let system = "linux"
        #endif
        environment = [
            ["runtime.NumCPU", .number(Double(process.activeProcessorCount))], ["runtime.GOOS", .string(system)],
            ["runtime.GOARCH", .string(architecture)],
        ]
        utilization = Utilization(
            logicalProcessors: process.activeProcessorCount, totalRAMMiB: process.physicalMemory >> 20,
            hostname: hostname)
        metadata = variables.filter { $0.key.hasPrefix("NEW_RELIC_METADATA_") }
    }

    /// The JSON body: the payload as the one element of an array.
    func body() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode([self])
    }
}
