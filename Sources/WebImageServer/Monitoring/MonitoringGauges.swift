import CoreMetrics
import WebImage

/// imgproxy's `monitoring/stats`: the gauges its Datadog and CloudWatch reporters send every interval, kept as the
/// last value of the server's meters of the same names (a `MetricsFactory` multiplexed beside Prometheus, so it sees
/// exactly what `/metrics` sees). Every other metric goes nowhere.
final class MonitoringGauges: MetricsFactory, Sendable {
    /// One reading of the gauges.
    struct Snapshot: Sendable, Equatable {
        var workers: Double = 0
        var requestsInProgress: Double = 0
        var imagesInProgress: Double = 0
        var workersUtilization: Double = 0
    }

    /// The gauges, by imgproxy's names (as ``ImgproxyMetrics`` names its meters).
    private enum Field: String {
        case workers
        case requestsInProgress = "requests_in_progress"
        case imagesInProgress = "images_in_progress"
        case workersUtilization = "workers_utilization"

        /// Changes the field's value in `snapshot`.
        func update(_ snapshot: inout Snapshot, _ change: (inout Double) -> Void) {
            switch self {
            case .workers: change(&snapshot.workers)
            case .requestsInProgress: change(&snapshot.requestsInProgress)
            case .imagesInProgress: change(&snapshot.imagesInProgress)
            case .workersUtilization: change(&snapshot.workersUtilization)
            }
        }
    }

    private let prefix: String
    private let values = Locked(Snapshot())

    /// Gauges of the meters named `prefix` + imgproxy's name (`prefix` is the metrics namespace and `_`, or empty).
    init(prefix: String) { self.prefix = prefix }

    /// The gauges now.
    var snapshot: Snapshot { values.withLock { $0 } }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        guard label.hasPrefix(prefix), let field = Field(rawValue: String(label.dropFirst(prefix.count))) else {
            return NOOPMetricsHandler.instance
        }
        return Gauge(values: values, field: field)
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        NOOPMetricsHandler.instance
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        NOOPMetricsHandler.instance
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler { NOOPMetricsHandler.instance }

    func destroyCounter(_ handler: any CounterHandler) {}
    func destroyMeter(_ handler: any MeterHandler) {}
    func destroyRecorder(_ handler: any RecorderHandler) {}
    func destroyTimer(_ handler: any TimerHandler) {}

    /// One gauge: a field of the shared snapshot.
    private final class Gauge: MeterHandler, Sendable {
        let values: Locked<Snapshot>
        let field: Field

        init(values: Locked<Snapshot>, field: Field) {
            self.values = values
            self.field = field
        }

        func set(_ value: Int64) { set(Double(value)) }
        func set(_ value: Double) {
            guard value.isFinite else { return }
            values.withLock { field.update(&$0) { $0 = value } }
        }
        func increment(by amount: Double) {
            guard amount.isFinite else { return }
            values.withLock { field.update(&$0) { $0 += amount } }
        }
        func decrement(by amount: Double) { increment(by: -amount) }
    }
}
