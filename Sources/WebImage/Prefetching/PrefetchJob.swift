import Foundation

/// The work of one prefetch: a sliding window of at most `maxConcurrent` loads over the URLs, in order.
struct PrefetchJob: Sendable {
    let urls: [URL]
    let manager: ImageManager
    let options: ImageOptions
    let context: ImageContext
    let cachePolicy: ImageCachePolicy
    let maxConcurrent: Int

    /// Loads every URL (until the calling task is cancelled), reporting the counts after each one is done.
    func run(report: (ImagePrefetchProgress) -> Void) async -> ImagePrefetchSummary {
        var summary = ImagePrefetchSummary(total: urls.count)
        let manager = manager
        let options = options
        let context = context
        let cachePolicy = cachePolicy
        await withTaskGroup(of: (URL, WebImageError?).self) { group in
            var next = 0
            func startNext() {
                guard next < urls.count, !Task.isCancelled else { return }
                let url = urls[next]
                next += 1
                group.addTask {
                    do throws(WebImageError) {
                        let request = ImageRequest(
                            url: url, options: options, cachePolicy: cachePolicy, context: context)
                        _ = try await manager.image(for: request)
                        return (url, nil)
                    } catch {
                        return (url, error)
                    }
                }
            }
            for _ in 0..<min(maxConcurrent, urls.count) { startNext() }
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
