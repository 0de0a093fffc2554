import CoreMetrics
import WebImage

/// imgproxy's Prometheus series, under imgproxy's names, so that a dashboard made for imgproxy keeps working:
/// imgproxy 4's (`monitoring/prometheus`) and imgproxy 3's download, processing and buffer histograms. The server's
/// own, more detailed series (``ServerMetrics``) are kept beside them.
///
/// | name | type | labels |
/// |---|---|---|
/// | `requests_total` | counter | |
/// | `status_codes_total` | counter | `status` |
/// | `errors_total` | counter | `type`: `path_parsing`, `security`, `download`, `timeout`, `image_data_size`, `queue`, `processing` |
/// | `request_duration_seconds` | histogram | |
/// | `request_span_duration_seconds` | histogram | `span`: `queue`, `downloading_source_image`, `processing_image` |
/// | `download_duration_seconds` | histogram | (imgproxy 3) |
/// | `processing_duration_seconds` | histogram | (imgproxy 3) |
/// | `buffer_size_bytes` | histogram | `type`: `download` (imgproxy 3: the sizes of downloaded sources) |
/// | `requests_in_progress` | gauge | |
/// | `images_in_progress` | gauge | |
/// | `workers` | gauge | (processing slots) |
/// | `workers_utilization` | gauge | (slots in use, percent) |
struct ImgproxyMetrics: Sendable {
    let requests: CoreMetrics.Counter
    let requestDuration: CoreMetrics.Timer
    let queueSpan: CoreMetrics.Timer
    let downloadSpan: CoreMetrics.Timer
    let processingSpan: CoreMetrics.Timer
    let downloadDuration: CoreMetrics.Timer
    let processingDuration: CoreMetrics.Timer
    let bufferSize: CoreMetrics.Recorder
    let requestsInProgress: CoreMetrics.Meter
    let imagesInProgress: CoreMetrics.Meter
    let workers: CoreMetrics.Meter
    let workersUtilization: CoreMetrics.Meter
    private let statusCodes: CounterSeries<Int>
    private let errors: CounterSeries<String>

    /// The series, each named `prefix` + imgproxy's name.
    init(prefix: String, factory: any MetricsFactory) {
        statusCodes = CounterSeries(prefix + "status_codes_total", factory: factory) { [("status", String($0))] }
        errors = CounterSeries(prefix + "errors_total", factory: factory) { [("type", $0)] }
        requests = CoreMetrics.Counter(label: prefix + "requests_total", factory: factory)
        requestDuration = CoreMetrics.Timer(label: prefix + "request_duration_seconds", factory: factory)
        func span(_ name: String) -> CoreMetrics.Timer {
            CoreMetrics.Timer(
                label: prefix + "request_span_duration_seconds", dimensions: [("span", name)], factory: factory)
        }
        queueSpan = span("queue")
        downloadSpan = span("downloading_source_image")
        processingSpan = span("processing_image")
        downloadDuration = CoreMetrics.Timer(label: prefix + "download_duration_seconds", factory: factory)
        processingDuration = CoreMetrics.Timer(label: prefix + "processing_duration_seconds", factory: factory)
        bufferSize = CoreMetrics.Recorder(
            label: prefix + "buffer_size_bytes", dimensions: [("type", "download")], aggregate: true, factory: factory)
        requestsInProgress = CoreMetrics.Meter(label: prefix + "requests_in_progress", factory: factory)
        imagesInProgress = CoreMetrics.Meter(label: prefix + "images_in_progress", factory: factory)
        workers = CoreMetrics.Meter(label: prefix + "workers", factory: factory)
        workersUtilization = CoreMetrics.Meter(label: prefix + "workers_utilization", factory: factory)
        for meter in [requestsInProgress, imagesInProgress, workers, workersUtilization] { meter.set(0) }
    }

    /// Counts one answered request with its status.
    func request(status: Int) {
        requests.increment()
        statusCodes.increment(status)
    }

    /// Counts one failed request by imgproxy's category of its error.
    func error(_ error: ImageServerError) { errors.increment(error.imgproxyCategory) }
}

extension ImageServerError {
    /// imgproxy's category of this error, the `type` of `errors_total` (imgproxy's `handlers/errors.go`).
    var imgproxyCategory: String {
        if let originFailure {
            switch originFailure {
            case .timeout: return "timeout"
            case .tooLarge: return "image_data_size"
            default: return "download"
            }
        }
        switch status {
        case 403: return "security"
        case 400, 404: return "path_parsing"
        case 503 where retryAfter != nil: return "queue"
        case 503, 504: return "timeout"
        default: return "processing"
        }
    }
}
