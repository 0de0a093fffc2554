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
/// | `webimage_error_reports_total` | counter | `reporter` (`sentry`, `bugsnag`, `honeybadger`, `airbrake`), `result` (`sent`, `failed`, `dropped`) |
///
/// imgproxy's series are kept beside them (``ImgproxyMetrics``). With a namespace (`--metrics-namespace`, imgproxy's
/// `IMGPROXY_PROMETHEUS_NAMESPACE`), every name starts with it and `_`, as imgproxy's do. With an exporter
/// (``ImageServerConfiguration/metricsExporter``) every metric is recorded into it too.
final class ServerMetrics: Sendable {
    let registry: PrometheusCollectorRegistry
    private let factory: any MetricsFactory

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
    /// imgproxy's series.
    let imgproxy: ImgproxyMetrics
    /// The namespace and `_`, or nothing, before every name.
    private let prefix: String
    private let requests: CounterSeries<RequestLabels>
    private let originErrors: CounterSeries<OriginFailure>
    private let errorReports: CounterSeries<ErrorReporter.Delivery>

    /// The metrics, each name after `namespace` and `_` when it is not empty (checked by
    /// ``ImageServerConfiguration/validate()``), recorded into `exporter` too when there is one.
    init(namespace: String = "", exporter: (any MetricsFactory)? = nil) {
        let prefix = namespace.isEmpty ? "" : namespace + "_"
        self.prefix = prefix
        registry = PrometheusCollectorRegistry()
        var prometheus = PrometheusMetricsFactory(registry: registry)
        prometheus.defaultDurationHistogramBuckets = [
            .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
            .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500),
            .seconds(5), .seconds(10),
        ]
        // Byte sizes: 1 KiB to 64 MiB.
        prometheus.defaultValueHistogramBuckets = (0...8).map { Double(1 << (10 + 2 * $0)) }
        let factory: any MetricsFactory =
            exporter.map { MultiplexMetricsHandler(factories: [prometheus, $0]) } ?? prometheus
        self.factory = factory
        imgproxy = ImgproxyMetrics(prefix: prefix, factory: factory)
        requests = CounterSeries(prefix + "webimage_requests_total", factory: factory) { labels in
            [
                ("status", String(labels.status)), ("cache", labels.cache.rawValue),
                ("endpoint", labels.endpoint.rawValue),
            ]
        }
        originErrors = CounterSeries(prefix + "webimage_origin_errors_total", factory: factory) {
            [("kind", $0.rawValue)]
        }
        errorReports = CounterSeries(prefix + "webimage_error_reports_total", factory: factory) {
            [("reporter", $0.reporter), ("result", $0.result)]
        }
        func stage(_ name: String) -> CoreMetrics.Timer {
            CoreMetrics.Timer(
                label: prefix + "webimage_stage_duration_seconds", dimensions: [("stage", name)], factory: factory)
        }
        queueWait = stage("queue_wait")
        download = stage("download")
        decode = stage("decode")
        transform = stage("transform")
        encode = stage("encode")
        queueDepth = CoreMetrics.Meter(label: prefix + "webimage_processing_queue_depth", factory: factory)
        inFlight = CoreMetrics.Meter(label: prefix + "webimage_processing_in_flight", factory: factory)
        bytesIn = CoreMetrics.Counter(label: prefix + "webimage_bytes_in_total", factory: factory)
        bytesOut = CoreMetrics.Counter(label: prefix + "webimage_bytes_out_total", factory: factory)
        originFetches = CoreMetrics.Counter(label: prefix + "webimage_origin_fetches_total", factory: factory)
        processingRuns = CoreMetrics.Counter(label: prefix + "webimage_processing_runs_total", factory: factory)
        peerForwards = CoreMetrics.Counter(label: prefix + "webimage_peer_forwards_total", factory: factory)
        queueDepth.set(0)
        inFlight.set(0)
    }

    /// Counts one answered image or `/info` request: its status, how it was answered, its body bytes.
    func answered(_ outcome: RequestOutcome) {
        bytesOut.increment(by: outcome.bytes)
        let status = outcome.response.status.code
        imgproxy.request(status: status)
        requests.increment(RequestLabels(status: status, cache: outcome.cache, endpoint: outcome.endpoint))
    }

    /// Counts the error a request failed with: by origin failure, and in imgproxy's categories.
    func failed(_ error: ImageServerError) {
        if let failure = error.originFailure { originError(kind: failure) }
        imgproxy.error(error)
    }

    /// The labels of one `webimage_requests_total` series.
    private struct RequestLabels: Hashable {
        let status: Int
        let cache: CacheOutcome
        let endpoint: Endpoint
    }

    /// Counts what became of one error report.
    func errorReport(_ delivery: ErrorReporter.Delivery) { errorReports.increment(delivery) }

    /// Counts one failed origin fetch.
    func originError(kind: OriginFailure) { originErrors.increment(kind) }

    /// A request starts (`requests_in_progress`).
    func started() { imgproxy.requestsInProgress.increment() }

    /// A request that started has been answered after `seconds`.
    func finished(seconds: Double) {
        imgproxy.requestsInProgress.decrement()
        imgproxy.requestDuration.record(seconds: seconds)
    }

    /// Records one download from an origin: its time and its size.
    func downloaded(since start: ContinuousClock.Instant, bytes: Int) {
        let seconds = start.secondsUntilNow
        for timer in [download, imgproxy.downloadSpan, imgproxy.downloadDuration] { timer.record(seconds: seconds) }
        imgproxy.bufferSize.record(bytes)
        originFetches.increment()
        bytesIn.increment(by: bytes)
    }

    /// Records the stages of one processing run.
    func processed(_ timings: StageTimings) {
        decode.record(seconds: timings.decode)
        transform.record(seconds: timings.transform)
        encode.record(seconds: timings.encode)
        let total = timings.decode + timings.transform + timings.encode
        imgproxy.processingSpan.record(seconds: total)
        imgproxy.processingDuration.record(seconds: total)
    }

    /// Records how long a run waited for a processing slot.
    func waited(since start: ContinuousClock.Instant) {
        let seconds = start.secondsUntilNow
        queueWait.record(seconds: seconds)
        imgproxy.queueSpan.record(seconds: seconds)
    }

    /// Records the processing queue's load: runs in `slots` and requests waiting for one.
    func load(running: Int, waiting: Int, slots: Int) {
        inFlight.set(Int64(running))
        queueDepth.set(Int64(waiting))
        imgproxy.imagesInProgress.set(Int64(running))
        imgproxy.workers.set(Int64(slots))
        imgproxy.workersUtilization.set(slots > 0 ? Double(running) * 100 / Double(slots) : 0)
    }

    /// The Prometheus text of every metric, with the shared tier's errors when there is one.
    func text(shared: SharedStore?) -> [UInt8] {
        var text = registry.emitToBuffer()
        guard let shared else { return text }
        let name = prefix + "webimage_shared_store_errors_total"
        text += Array("# TYPE \(name) counter\n".utf8)
        for operation in ["get", "put", "lease", "head"] {
            let count = shared.errorCounts[operation] ?? 0
            text += Array("\(name){operation=\"\(operation)\"} \(count)\n".utf8)
        }
        return text
    }
}

extension CoreMetrics.Timer {
    /// Records `seconds`, when finite and not negative.
    func record(seconds: Double) {
        guard seconds.isFinite, seconds >= 0, seconds < 1e9 else { return }
        recordNanoseconds(Int64(seconds * 1e9))
    }
}
