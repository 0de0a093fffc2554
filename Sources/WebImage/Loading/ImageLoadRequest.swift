import Foundation

/// One load: the URL, its settings, and its place in the download queue.
public struct ImageLoadRequest: Sendable {
    /// What to load: `http(s)://`, `file://`, a `data:` URI, or (for ``FileImageLoader``) a URL made from a path.
    public var url: URL
    /// Timeout, headers, validation, limits; see ``ImageLoaderOptions``.
    public var options: ImageLoaderOptions
    /// Where the download waits in the queue; ignored by loaders without a queue.
    public var priority: ImageLoadPriority
    /// Set to change the priority while the download waits: the handle's priority replaces ``priority``.
    public var priorityHandle: ImageLoadPriorityHandle?

    /// Creates a request.
    public init(
        url: URL, options: ImageLoaderOptions = .default, priority: ImageLoadPriority = .normal,
        priorityHandle: ImageLoadPriorityHandle? = nil
    ) {
        self.url = url
        self.options = options
        self.priority = priority
        self.priorityHandle = priorityHandle
    }

    /// The priority in force now: the handle's, if there is one.
    var currentPriority: ImageLoadPriority { priorityHandle?.priority ?? priority }
}
