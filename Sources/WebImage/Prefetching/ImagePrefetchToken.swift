import Foundation

/// One running prefetch, made by ``ImagePrefetcher/prefetch(_:progress:completion:)-([URL],_,_)``: its progress as an async
/// sequence, its summary, and cancellation.
public final class ImagePrefetchToken: Sendable {
    /// The URLs being prefetched.
    public let urls: [URL]
    /// A value each time a URL finishes or fails; ends when the prefetch does (cancelled loads are not reported).
    public let progress: AsyncStream<ImagePrefetchProgress>
    private let work: Task<ImagePrefetchSummary, Never>

    init(urls: [URL], progress: AsyncStream<ImagePrefetchProgress>, work: Task<ImagePrefetchSummary, Never>) {
        self.urls = urls
        self.progress = progress
        self.work = work
    }

    /// The summary, once the prefetch has ended.
    public var summary: ImagePrefetchSummary {
        get async { await work.value }
    }

    /// Stops the prefetch: loads in flight are cancelled, waiting ones never start. Other callers loading the
    /// same images are not affected.
    public func cancel() { work.cancel() }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { work.isCancelled }
}
