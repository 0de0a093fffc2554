import CoreMetrics
import Foundation
import Prometheus
import WebImage
import WebImageStores

/// The server's metrics, through swift-metrics into its own Prometheus registry (served at `/metrics`).
///
/// Each server has its own registry, so several servers in one process (tests, an app mounting two) never mix
/// their numbers, and nothing depends on the process-wide `MetricsSystem` bootstrap.
///
/// | name | type | labels |
/// |---|---|---|
/// | `webimage_requests_total` | counter | `status`, `cache` (``CacheOutcome``: `memory`, `disk`, `shared`, `miss`, `not_modified`, `forwarded`, `none`), `endpoint` (``Endpoint``: `image`, `info`) |
/// | `webimage_stage_duration_seconds` | histogram | `stage` (`queue_wait`, `download`, `decode`, `transform`, `encode`) |
/// | `webimage_processing_queue_depth` | gauge | |
/// | `webimage_processing_in_flight` | gauge | |
/// | `webimage_bytes_in_total` | counter | (source bytes from the origin) |
/// | `webimage_bytes_out_total` | counter | (response body bytes) |
/// | `webimage_origin_errors_total` | counter | `kind` (``OriginFailure``) |
/// | `webimage_origin_fetches_total` | counter | (downloads from the origin, not cache hits) |
/// | `webimage_processing_runs_total` | counter | (decode-transform-encode runs, and `/info` analyses) |
/// | `webimage_peer_forwards_total` | counter | (requests answered by the owner node, `--peer-forward`) |
/// | `webimage_shared_store_errors_total` | counter | `operation` (`get`, `put`, `lease`, `head`; with a shared tier) |
final class ServerMetrics: Sendable {
    let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory

    let queueWait: CoreMetrics.Timer
    let download: CoreMetrics.Timer
    let decode: CoreMetrics.Timer
    let transform: CoreMetrics.Timer
    let encode: CoreMetrics.Timer
    let queueDepth: CoreMetrics.Meter
    let inFlight: CoreMetrics.Meter
    let bytesIn: CoreMetrics.Counter
    let bytesOut: CoreMetrics.Counter
    let originFetches: CoreMetrics.Counter
    let processingRuns: CoreMetrics.Counter
    let peerForwards: CoreMetrics.Counter
    /// The `webimage_requests_total` series made so far: looked up by their labels' values, not by their text in the
    /// registry, on every request.
    private let requestCounters = Locked<[RequestLabels: CoreMetrics.Counter]>([:])

    init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
            .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500),
            .seconds(5), .seconds(10),
        ]
        self.factory = factory
        func stage(_ name: String) -> CoreMetrics.Timer {
            CoreMetrics.Timer(label: "webimage_stage_duration_seconds", dimensions: [("stage", name)], factory: factory)
        }
        queueWait = stage("queue_wait")
        download = stage("download")
        decode = stage("decode")
        transform = stage("transform")
        encode = stage("encode")
        queueDepth = CoreMetrics.Meter(label: "webimage_processing_queue_depth", factory: factory)
        inFlight = CoreMetrics.Meter(label: "webimage_processing_in_flight", factory: factory)
        bytesIn = CoreMetrics.Counter(label: "webimage_bytes_in_total", factory: factory)
        bytesOut = CoreMetrics.Counter(label: "webimage_bytes_out_total", factory: factory)
        originFetches = CoreMetrics.Counter(label: "webimage_origin_fetches_total", factory: factory)
        processingRuns = CoreMetrics.Counter(label: "webimage_processing_runs_total", factory: factory)
        peerForwards = CoreMetrics.Counter(label: "webimage_peer_forwards_total", factory: factory)
        queueDepth.set(0)
        inFlight.set(0)
    }

    /// Counts one answered request of `endpoint`.
    func request(status: Int, cache: CacheOutcome, endpoint: Endpoint) {
        let key = RequestLabels(status: status, cache: cache, endpoint: endpoint)
        let counter = requestCounters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = CoreMetrics.Counter(
                label: "webimage_requests_total",
                dimensions: [("status", String(status)), ("cache", cache.rawValue), ("endpoint", endpoint.rawValue)],
                factory: factory)
            counters[key] = counter
            return counter
        }
        counter.increment()
    }

    /// The labels of one `webimage_requests_total` series.
    private struct RequestLabels: Hashable {
        let status: Int
        let cache: CacheOutcome
        let endpoint: Endpoint
    }

    /// Counts one failed origin fetch.
    func originError(kind: OriginFailure) {
        CoreMetrics.Counter(
            label: "webimage_origin_errors_total", dimensions: [("kind", kind.rawValue)], factory: factory
        )
        .increment()
    }

    /// The registry in Prometheus' text format.
    /// The Prometheus text of every metric, with the shared tier's errors when there is one.
    func text(shared: SharedStore?) -> [UInt8] {
        var text = registry.emitToBuffer()
        guard let shared else { return text }
        text += Array("# TYPE webimage_shared_store_errors_total counter\n".utf8)
        for operation in ["get", "put", "lease", "head"] {
            let count = shared.errorCounts[operation] ?? 0
            text += Array("webimage_shared_store_errors_total{operation=\"\(operation)\"} \(count)\n".utf8)
        }
        return text
    }
}

extension CoreMetrics.Timer {
    /// Records the time from `start` to now.
    func recordInterval(since start: ContinuousClock.Instant) { record(seconds: start.secondsUntilNow) }

    /// Records `seconds`, when finite and not negative.
    func record(seconds: Double) {
        guard seconds.isFinite, seconds >= 0, seconds < 1e9 else { return }
        recordNanoseconds(Int64(seconds * 1e9))
    }
}
