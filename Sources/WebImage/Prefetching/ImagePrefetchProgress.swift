/// How far one prefetch has come.
///
/// Unlike SDWebImage's `finishedCount`, ``finished`` counts only successes; ``skipped`` counts failures, so
/// ``completed`` (`finished + skipped`) is SDWebImage's `finishedCount`.
public struct ImagePrefetchProgress: Sendable, Hashable, CustomStringConvertible {
    /// URLs whose images are now in the caches.
    public var finished: Int
    /// URLs that failed to load (bad status, undecodable, a remembered failed URL, …).
    public var skipped: Int
    /// All URLs of the prefetch.
    public var total: Int

    /// Creates a progress value.
    public init(finished: Int = 0, skipped: Int = 0, total: Int) {
        self.finished = finished
        self.skipped = skipped
        self.total = total
    }

    /// URLs done either way: `finished + skipped`.
    public var completed: Int { finished + skipped }

    public var description: String { "\(finished) finished, \(skipped) skipped of \(total)" }
}
