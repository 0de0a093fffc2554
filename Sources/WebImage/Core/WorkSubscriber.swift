/// One caller of shared work: the priority it asks for, what it wants told, and the work it waits on.
///
/// It outlives the joins it makes, so a priority set before the caller has joined any work is kept and applied when
/// it joins, and a caller cancelled before it joined never joins (cancel-before-join).
package final class WorkSubscriber<Event: Sendable>: Sendable {
    private struct State {
        var priority: ImageLoadPriority
        var cancelled = false
        /// The joined work's hooks, while joined.
        var joined: (leave: @Sendable () -> Void, reprioritize: @Sendable () -> Void)?
    }

    /// Called with every event of the work this subscriber waits on.
    package let onEvent: @Sendable (Event) -> Void
    /// Whether the subscriber wants costly event details (the bytes so far, for progressive decoding).
    package let wantsDetail: Bool
    private let state: Locked<State>

    package init(
        priority: ImageLoadPriority, wantsDetail: Bool = false, onEvent: @escaping @Sendable (Event) -> Void = { _ in }
    ) {
        state = Locked(State(priority: priority))
        self.wantsDetail = wantsDetail
        self.onEvent = onEvent
    }

    /// The priority this subscriber asks for now.
    package var priority: ImageLoadPriority { state.withLock { $0.priority } }

    /// Whether ``cancel()`` was called.
    package var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Changes the priority asked for; the joined work, if any, recomputes its own.
    package func setPriority(_ priority: ImageLoadPriority) {
        let reprioritize = state.withLock { state in
            state.priority = priority
            return state.joined?.reprioritize
        }
        reprioritize?()
    }

    /// Leaves the joined work (resuming the caller with a cancellation error), and never joins again.
    package func cancel() {
        let leave = state.withLock { state in
            state.cancelled = true
            defer { state.joined = nil }
            return state.joined?.leave
        }
        leave?()
    }

    /// Records the hooks of the work being joined; `false` (and nothing recorded) once cancelled.
    package func attach(leave: @escaping @Sendable () -> Void, reprioritize: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { state in
            guard !state.cancelled else { return false }
            state.joined = (leave, reprioritize)
            return true
        }
    }

    /// Forgets the joined work once it is over.
    package func detach() { state.withLock { $0.joined = nil } }
}
