import Foundation

/// The outcome of one prefetch, delivered once when it ends (all URLs done, or cancelled).
public struct ImagePrefetchSummary: Sendable, CustomStringConvertible {
    /// One URL that could not be prefetched, and why.
    public struct Failure: Sendable {
        /// The URL.
        public let url: URL
        /// Why it failed.
        public let error: WebImageError
    }

    /// URLs whose images are now in the caches.
    public internal(set) var finished = 0
    /// URLs that failed; each has an entry in ``failures``.
    public internal(set) var skipped = 0
    /// URLs not done because the prefetch was cancelled: those still waiting and those cancelled mid-load.
    public internal(set) var cancelled = 0
    /// All URLs of the prefetch.
    public let total: Int
    /// The failed URLs with their errors, in the order they failed.
    public internal(set) var failures: [Failure] = []

    init(total: Int) { self.total = total }

    /// The counts as a progress value.
    public var progress: ImagePrefetchProgress {
        ImagePrefetchProgress(finished: finished, skipped: skipped, total: total)
    }

    /// Whether the prefetch stopped before every URL was done.
    public var wasCancelled: Bool { cancelled > 0 }

    public var description: String { "\(progress), \(cancelled) cancelled" }
}
