import Foundation

/// Download progress: bytes received and, when the source announced it, the total.
public struct ImageProgress: Sendable, Hashable {
    /// Bytes received so far.
    public let received: Int
    /// The total the source announced (`Content-Length`), if it did.
    public let expected: Int?

    /// The fraction done, when the total is known.
    public var fraction: Double? { expected.map { $0 > 0 ? Double(received) / Double($0) : 1 } }
}

/// One caller's load in flight: its result, progress and previews as async sequences, and cancellation.
///
/// Made by ``ImageManager/task(for:)`` and ``ImageManager/loadImage(with:options:context:progress:completion:)``.
/// Cancelling a task leaves other callers of the same image untouched.
public final class ImageTask: Sendable {
    /// The request this task loads.
    public let request: ImageRequest
    /// Progress events, finishing when the task does.
    public let progress: AsyncStream<ImageProgress>
    /// Progressive previews (with ``ImageOptions/progressiveLoad``), finishing when the task does.
    public let previews: AsyncStream<Image>
    private let work: Task<ImageResult, any Error>
    /// This caller in the run it joins: keeps the priority asked for, also before joining.
    private let subscriber: WorkSubscriber<RunEvent>

    /// A task running `request`; `afterMemoryMiss` when the caller has just looked in memory (the callback API, the
    /// target binding), so that the memory cache is not asked twice.
    init(
        manager: ImageManager, request: ImageRequest, afterMemoryMiss: Bool = false,
        onProgress: (@Sendable (ImageProgress) -> Void)? = nil
    ) {
        self.request = request
        let (progress, progressSink) = AsyncStream.makeStream(
            of: ImageProgress.self, bufferingPolicy: .bufferingNewest(16))
        let (previews, previewSink) = AsyncStream.makeStream(of: Image.self, bufferingPolicy: .bufferingNewest(1))
        self.progress = progress
        self.previews = previews
        let events = ImageTaskEvents(
            onProgress: { received, expected in
                let event = ImageProgress(received: received, expected: expected)
                progressSink.yield(event)
                onProgress?(event)
            },
            onPreview: { previewSink.yield($0) },
            onFinish: {
                progressSink.finish()
                previewSink.finish()
            })
        let subscriber = events.subscriber(priority: request.priority)
        self.subscriber = subscriber
        work = Task { () async throws -> ImageResult in
            try await manager.perform(request, subscriber: subscriber, events: events, checksMemory: !afterMemoryMiss)
        }
    }

    /// A task that is already done, for a memory hit.
    init(request: ImageRequest, finished result: ImageResult) {
        self.request = request
        subscriber = WorkSubscriber(priority: request.priority)
        progress = AsyncStream { $0.finish() }
        previews = AsyncStream { $0.finish() }
        work = Task { result }
    }

    /// The finished result; throws the load's ``WebImageError`` (``WebImageError/Code/cancelled`` once cancelled).
    public var result: ImageResult {
        get async throws(WebImageError) {
            do {
                return try await work.value
            } catch let error as WebImageError {
                throw error
            } catch {
                throw WebImageError(.cancelled, "the request was cancelled", url: request.url, underlying: error)
            }
        }
    }

    /// Stops this caller's load. Others loading the same image are not affected; the last one out stops the work.
    public func cancel() {
        work.cancel()
        subscriber.cancel()
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { work.isCancelled }

    /// Changes the priority this caller asks for; the download runs at the highest priority of its callers.
    /// A priority set before the task has joined its run is kept and applied when it joins.
    public func setPriority(_ priority: ImageLoadPriority) { subscriber.setPriority(priority) }
}
