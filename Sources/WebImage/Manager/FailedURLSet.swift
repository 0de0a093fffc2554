import Foundation

/// The URLs that failed permanently, which the manager does not load again unless asked (``ImageOptions/retryFailed``).
final class FailedURLSet: Sendable {
    private let urls = Locked<Set<URL>>([])

    func contains(_ url: URL) -> Bool { urls.withLock { $0.contains(url) } }

    func insert(_ url: URL) { _ = urls.withLock { $0.insert(url) } }

    func remove(_ url: URL) { _ = urls.withLock { $0.remove(url) } }

    func removeAll() { urls.withLock { $0.removeAll() } }
}
