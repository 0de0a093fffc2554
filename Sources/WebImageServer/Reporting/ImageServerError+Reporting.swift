extension ImageServerError {
    /// Whether imgproxy's error reporters hear of this error (its `ShouldReport`): a source that cannot be downloaded
    /// or is not an image only with `downloadingErrors` (imgproxy's `IMGPROXY_REPORT_DOWNLOADING_ERRORS`, which marks
    /// every download error reportable); a source that cannot be decoded or an SVG that cannot be sanitised
    /// (``isProcessingFailure``), and any other 5xx; never a client's mistake (4xx: path, signature, options, limits),
    /// a busy server, a request that timed out or went away (503) or a cancelled download.
    func isReported(downloadingErrors: Bool) -> Bool {
        if originFailure == .cancelled { return false }
        if isSourceFailure { return downloadingErrors }
        if isProcessingFailure { return true }
        return status >= 500 && status != 503
    }

    /// The class reports give it, after imgproxy's category (``imgproxyCategory``): `DownloadError`,
    /// `ImageDataSizeError`, `TimeoutError`, `SecurityError`, `PathParsingError`, `QueueError` or `ProcessingError`.
    var reportedClass: String {
        if isUnreadableSource { return "DownloadError" }
        switch imgproxyCategory {
        case "download": return "DownloadError"
        case "image_data_size": return "ImageDataSizeError"
        case "timeout": return "TimeoutError"
        case "security": return "SecurityError"
        case "path_parsing": return "PathParsingError"
        case "queue": return "QueueError"
        default: return "ProcessingError"
        }
    }
}
