import Foundation

/// One execution of the pipeline shared by every identical request in flight (coalescing).
///
/// Subscribers each get their own result, progress and previews. One cancelling leaves the others running; when the
/// last one leaves, the work is cancelled. The download runs at the highest priority among the subscribers.
final class ImageRun: Sendable {
    /// What one subscriber wants told.
    struct Subscriber {
        var continuation: CheckedContinuation<ImageResult, any Error>?
        var priority: ImageLoadPriority
        var events: ImageTaskEvents
    }

    private struct State {
        var subscribers: [Int: Subscriber] = [:]
        var cancelledEarly: Set<Int> = []
        var task: Task<Void, Never>?
        var finished = false
    }

    let key: String
    /// The download's priority, raised and lowered as subscribers come and go.
    let priorityHandle = ImageLoadPriorityHandle()
    private let state = Locked(State())
    private let onEmpty: @Sendable () -> Void

    /// A run for `key`; `onEmpty` is called (once) when it finishes or its last subscriber leaves.
    init(key: String, onEmpty: @escaping @Sendable () -> Void) {
        self.key = key
        self.onEmpty = onEmpty
    }

    /// Starts the work; the result goes to every subscriber.
    func start(_ work: @escaping @Sendable (ImageRun) async -> Result<ImageResult, WebImageError>) {
        let task = Task { [self] in
            let result = await work(self)
            finish(result)
        }
        state.withLock { $0.task = task }
    }

    /// Adds a subscriber; `continuation` is resumed with the run's result, or with a cancellation error if the
    /// subscriber cancels first. Returns `false` when the run already finished (the caller should start a new one).
    func subscribe(
        id: Int, priority: ImageLoadPriority, events: ImageTaskEvents,
        continuation: CheckedContinuation<ImageResult, any Error>
    ) -> Bool {
        let outcome = state.withLock { state -> Bool? in
            if state.finished { return nil }
            if state.cancelledEarly.remove(id) != nil { return false }
            state.subscribers[id] = Subscriber(continuation: continuation, priority: priority, events: events)
            return true
        }
        switch outcome {
        case nil: return false
        case false?: continuation.resume(throwing: WebImageError(.cancelled, "the request was cancelled"))
        case true?: updatePriority()
        }
        return true
    }

    /// Removes a subscriber, resuming it with a cancellation error; cancels the work when it was the last.
    func unsubscribe(id: Int) {
        let (subscriber, last, task) = state.withLock { state -> (Subscriber?, Bool, Task<Void, Never>?) in
            guard let subscriber = state.subscribers.removeValue(forKey: id) else {
                if !state.finished { state.cancelledEarly.insert(id) }
                return (nil, false, nil)
            }
            let last = state.subscribers.isEmpty && !state.finished
            if last { state.finished = true }
            return (subscriber, last, state.task)
        }
        subscriber?.events.finish()
        subscriber?.continuation?.resume(throwing: WebImageError(.cancelled, "the request was cancelled"))
        if last {
            onEmpty()
            task?.cancel()
        } else if subscriber != nil {
            updatePriority()
        }
    }

    /// Changes one subscriber's priority; the run takes the highest.
    func setPriority(_ priority: ImageLoadPriority, for id: Int) {
        state.withLock { $0.subscribers[id]?.priority = priority }
        updatePriority()
    }

    /// Tells every subscriber about download progress.
    func reportProgress(received: Int, expected: Int?) {
        for events in state.withLock({ $0.subscribers.values.map(\.events) }) { events.progress(received, expected) }
    }

    /// Gives every subscriber a preview.
    func reportPreview(_ image: Image) {
        for events in state.withLock({ $0.subscribers.values.map(\.events) }) { events.preview(image) }
    }

    private func updatePriority() {
        let highest = state.withLock { $0.subscribers.values.map(\.priority).max() }
        if let highest, highest != priorityHandle.priority { priorityHandle.setPriority(highest) }
    }

    private func finish(_ result: Result<ImageResult, WebImageError>) {
        let subscribers = state.withLock { state -> [Subscriber]? in
            let wasFinished = state.finished
            state.finished = true
            defer { state.subscribers.removeAll() }
            return wasFinished ? nil : Array(state.subscribers.values)
        }
        guard let subscribers else { return }
        onEmpty()
        for subscriber in subscribers {
            subscriber.events.finish()
            subscriber.continuation?.resume(with: result.mapError { $0 as any Error })
        }
    }
}
