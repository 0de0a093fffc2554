/// Changes the priority of a load while it waits in a download queue.
///
/// Pass the handle in ``ImageLoadRequest/priorityHandle`` and call ``setPriority(_:)`` at any time; a download that
/// has already started is not affected. Thread-safe.
public final class ImageLoadPriorityHandle: Sendable {
    private struct State {
        var priority: ImageLoadPriority
        var nextObserver = 0
        var observers: [Int: @Sendable (ImageLoadPriority) -> Void] = [:]
    }
    private let state: Locked<State>

    /// Creates a handle starting at `priority`.
    public init(_ priority: ImageLoadPriority = .normal) {
        state = Locked(State(priority: priority))
    }

    /// The current priority.
    public var priority: ImageLoadPriority { state.withLock { $0.priority } }

    /// Changes the priority; waiting downloads that use this handle are reordered at once.
    public func setPriority(_ priority: ImageLoadPriority) {
        let observers = state.withLock { state -> [@Sendable (ImageLoadPriority) -> Void] in
            guard state.priority != priority else { return [] }
            state.priority = priority
            return Array(state.observers.values)
        }
        for observer in observers { observer(priority) }
    }

    /// Registers `observer`; returns a token for ``removeObserver(_:)``.
    func addObserver(_ observer: @escaping @Sendable (ImageLoadPriority) -> Void) -> Int {
        state.withLock { state in
            defer { state.nextObserver += 1 }
            state.observers[state.nextObserver] = observer
            return state.nextObserver
        }
    }

    func removeObserver(_ token: Int) {
        _ = state.withLock { $0.observers.removeValue(forKey: token) }
    }
}
