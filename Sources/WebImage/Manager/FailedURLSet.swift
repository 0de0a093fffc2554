import Foundation

/// The URLs that failed permanently, and the one place that decides which: the manager does not load them again
/// unless asked (``ImageOptions/retryFailed``).
final class FailedURLSet: Sendable {
    private let urls = Locked<Set<URL>>([])

    /// Throws ``WebImageError/Code/failedURL`` when `request`'s URL failed before and the request does not retry.
    func check(_ request: ImageRequest) throws(WebImageError) {
        guard !request.options.contains(.retryFailed), contains(request.url) else { return }
        throw WebImageError(.failedURL, "this URL failed before; set retryFailed to load it again", url: request.url)
    }

    /// Learns from the outcome of a run for `url`: a load (not a cache hit) clears it; a failure that is neither
    /// transient, nor a cache-only miss, nor a bad argument marks it, when the manager `remembers` failures.
    func record(_ outcome: Result<ImageResult, WebImageError>, for url: URL, remembers: Bool) {
        switch outcome {
        case .success(let result) where result.cacheType == .none: remove(url)
        case .success: break
        case .failure(let error):
            guard remembers, !error.isTransient, error.code != .notCached, error.code != .invalidArgument else {
                return
            }
            _ = urls.withLock { $0.insert(url) }
        }
    }

    func contains(_ url: URL) -> Bool { urls.withLock { $0.contains(url) } }

    func remove(_ url: URL) { _ = urls.withLock { $0.remove(url) } }

    func removeAll() { urls.withLock { $0.removeAll() } }
}
