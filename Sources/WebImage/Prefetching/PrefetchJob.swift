import Foundation

/// The work of one prefetch: a sliding window of at most `maxConcurrent` loads over the requests, in order.
struct PrefetchJob: Sendable {
    let requests: [ImageRequest]
    let manager: ImageManager
    let maxConcurrent: Int

    /// Loads every request (until the calling task is cancelled), reporting the counts after each one is done.
    func run(report: (ImagePrefetchProgress) -> Void) async -> ImagePrefetchSummary {
        var summary = ImagePrefetchSummary(total: requests.count)
        let manager = manager
        await withTaskGroup(of: (URL, WebImageError?).self) { group in
            var next = 0
            func startNext() {
                guard next < requests.count, !Task.isCancelled else { return }
                let request = requests[next]
                next += 1
                group.addTask {
                    do throws(WebImageError) {
                        _ = try await manager.image(for: request)
                        return (request.url, nil)
                    } catch {
                        return (request.url, error)
                    }
                }
            }
            for _ in 0..<min(maxConcurrent, requests.count) { startNext() }
            while let (url, error) = await group.next() {
                if let error {
                    if error.code == .cancelled && Task.isCancelled { continue }
                    summary.skipped += 1
                    summary.failures.append(.init(url: url, error: error))
                } else {
                    summary.finished += 1
                }
                report(summary.progress)
                startNext()
            }
        }
        summary.cancelled = summary.total - summary.finished - summary.skipped
        return summary
    }
}
