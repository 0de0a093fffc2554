/// One piece of work whose result every subscriber awaits: the merging primitive behind the manager's runs, the
/// HTTP loader's downloads and the server's results (``WorkMerger`` keys them).
///
/// Each subscriber waits on its own and may leave on its own; the last one out cancels the work. The work runs at
/// the highest priority among its subscribers, and ``observePriority(_:)`` hears every change. Events (progress,
/// previews) go to every subscriber.
package final class SharedWork<Value: Sendable, Event: Sendable, Failure: WorkFailure>: Sendable {
    /// What joining found.
    package enum Join {
        /// Joined as the first subscriber: the caller starts the work.
        case first
        /// Joined work that another subscriber started.
        case joined
        /// The work is over; join new work.
        case finished
        /// The subscriber was cancelled before it joined.
        case cancelled
    }

    private struct Entry {
        var subscriber: WorkSubscriber<Event>
        var continuation: CheckedContinuation<Value, any Error>
    }

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        var task: Task<Void, Never>?
        /// Whether a first subscriber joined (and so starts the work).
        var claimed = false
        var finished = false
        var priority: ImageLoadPriority = .low
        var observer: (@Sendable (ImageLoadPriority) -> Void)?
    }

    private let state = Locked(State())
    private let onEnd: @Sendable () -> Void
    private let onChange: @Sendable () -> Void

    /// Work that calls `onEnd` once, when it finishes or loses its last subscriber, and `onChange` whenever a
    /// subscriber comes or goes.
    package init(onEnd: @escaping @Sendable () -> Void, onChange: @escaping @Sendable () -> Void = {}) {
        self.onEnd = onEnd
        self.onChange = onChange
    }

    /// The highest priority among the subscribers.
    package var priority: ImageLoadPriority { state.withLock { $0.priority } }

    /// Whether the work finished or lost its last subscriber.
    package var hasEnded: Bool { state.withLock { $0.finished } }

    /// The subscribers now.
    package var subscriberCount: Int { state.withLock { $0.entries.count } }

    /// Whether some subscriber wants costly event details.
    package var wantsDetail: Bool { state.withLock { $0.entries.values.contains { $0.subscriber.wantsDetail } } }

    /// Calls `observer` with the priority now and after every change.
    package func observePriority(_ observer: @escaping @Sendable (ImageLoadPriority) -> Void) {
        state.withLock { state in
            state.observer = observer
            observer(state.priority)
        }
    }

    /// Tells every subscriber about `event`.
    package func send(_ event: Event) {
        for entry in state.withLock({ Array($0.entries.values) }) { entry.subscriber.onEvent(event) }
    }

    /// Adds `subscriber`, to be resumed with the result. Work that no subscriber ever joined ends here when its
    /// would-be first subscriber was already cancelled.
    package func join(_ subscriber: WorkSubscriber<Event>, continuation: CheckedContinuation<Value, any Error>) -> Join
    {
        let id = ObjectIdentifier(subscriber)
        let outcome = state.withLock { state -> Join in
            if state.finished { return .finished }
            let attached = subscriber.attach(
                leave: { [weak self] in self?.leave(id) },
                reprioritize: { [weak self] in self?.updatePriority() })
            guard attached else {
                if !state.claimed { state.finished = true }
                return .cancelled
            }
            state.entries[id] = Entry(subscriber: subscriber, continuation: continuation)
            defer { state.claimed = true }
            return state.claimed ? .joined : .first
        }
        switch outcome {
        case .first, .joined:
            updatePriority()
            onChange()
        case .cancelled:
            if state.withLock({ $0.finished && !$0.claimed }) { onEnd() }
        case .finished: break
        }
        return outcome
    }

    /// Starts `body`; its result goes to every subscriber.
    package func start(_ body: @escaping @Sendable () async -> Result<Value, Failure>) {
        let task = Task { [self] in finish(await body()) }
        let cancelled = state.withLock { state in
            state.task = task
            return state.finished
        }
        if cancelled { task.cancel() }
    }

    private func leave(_ id: ObjectIdentifier) {
        let (entry, last, task) = state.withLock { state -> (Entry?, Bool, Task<Void, Never>?) in
            guard let entry = state.entries.removeValue(forKey: id) else { return (nil, false, nil) }
            let last = state.entries.isEmpty && !state.finished
            if last { state.finished = true }
            return (entry, last, state.task)
        }
        guard let entry else { return }
        if last {
            onEnd()
            task?.cancel()
        } else {
            updatePriority()
        }
        entry.continuation.resume(throwing: Failure.cancelled)
        onChange()
    }

    /// Recomputes the priority; the observer is told under the lock, so changes reach it in order (it only ever
    /// reaches inward: a queue, or the download this work waits on, never this work).
    private func updatePriority() {
        state.withLock { state in
            guard let highest = state.entries.values.map(\.subscriber.priority).max(), highest != state.priority
            else { return }
            state.priority = highest
            state.observer?(highest)
        }
    }

    private func finish(_ result: Result<Value, Failure>) {
        let entries = state.withLock { state -> [Entry]? in
            let wasFinished = state.finished
            state.finished = true
            defer { state.entries.removeAll() }
            return wasFinished ? nil : Array(state.entries.values)
        }
        guard let entries else { return }
        onEnd()
        for entry in entries {
            entry.subscriber.detach()
            entry.continuation.resume(with: result.mapError { $0 as any Error })
        }
        onChange()
    }
}
