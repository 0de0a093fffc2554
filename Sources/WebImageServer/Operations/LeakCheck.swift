import Logging

/// What a server still holds once it has shut down (`--vips-leak-check`, imgproxy's `IMGPROXY_VIPS_LEAK_CHECK`): the
/// counterpart of libvips' leak check, which at its shutdown lists the objects still alive and reports the high-water
/// mark of its pixel memory. After a graceful shutdown every count is 0; anything else is work that was never
/// finished or given back (a leak, or a request cut off by the shutdown timeout).
struct LeakCheck: Sendable, Equatable {
    /// Requests still in progress (imgproxy's `requests_in_progress`).
    var requests: Int
    /// Images still being processed (imgproxy's `images_in_progress`).
    var images: Int
    /// Processing runs still running or waiting for a slot.
    var processing: Int
    /// Result runs still in flight (fetches and processing merged per result).
    var runs: Int
    /// The process's memory, its peak included; `nil` where it cannot be read.
    var memory: ProcessMemory?

    /// Everything still held.
    var held: Int { requests + images + processing + runs }

    /// One `leak check` line: at `warning` when anything is still held, else at `info`, with each count and the
    /// resident memory's high-water mark in MiB.
    func log(to logger: Logger) {
        var metadata: Logger.Metadata = [
            "requests_in_progress": "\(requests)", "images_in_progress": "\(images)",
            "processing_runs": "\(processing)", "result_runs": "\(runs)",
        ]
        if let memory { metadata["max_rss"] = "\(memory.maxRSS >> 10)" }
        if held > 0 {
            logger.warning("leak check: \(held) still held after shutdown", metadata: metadata)
        } else {
            logger.info("leak check: nothing held after shutdown", metadata: metadata)
        }
    }
}
