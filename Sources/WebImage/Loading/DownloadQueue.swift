/// Admits at most `maxConcurrent` downloads at once, starting waiting ones by priority, then FIFO or LIFO order.
///
/// A lock-guarded state machine over a heap of waiting tickets (O(log n) per admission); waiting is a suspended continuation, never polling. Usage by a download:
/// `let ticket = enqueue(priority)`, `try await wait(ticket)`, then always `finish(ticket)` (waiting or not).
final class DownloadQueue: Sendable {
    typealias Ticket = Int

    private enum Slot {
        case waiting(priority: ImageLoadPriority, continuation: CheckedContinuation<Void, any Error>?)
        case running
    }

    private struct State {
        var slots: [Ticket: Slot] = [:]
        var queue: WaitingDownloads
        var running = 0
        var waiting = 0
        var nextTicket = 0

        /// Takes a waiting ticket out of the slots, leaving its heap entry stale.
        mutating func removeWaiting(_ ticket: Ticket) -> CheckedContinuation<Void, any Error>? {
            guard case .waiting(_, let continuation) = slots.removeValue(forKey: ticket) else { return nil }
            waiting -= 1
            entryWentStale()
            return continuation
        }

        mutating func entryWentStale() {
            guard queue.noteStale() else { return }
            var current: [Ticket: ImageLoadPriority] = [:]
            for (ticket, slot) in slots { if case .waiting(let priority, _) = slot { current[ticket] = priority } }
            queue.sweep(keeping: current)
        }
    }

    let maxConcurrent: Int
    let order: ImageDownloadOrder
    private let state: Locked<State>
    private let changed: ChangeSignal

    init(maxConcurrent: Int, order: ImageDownloadOrder, changed: ChangeSignal) {
        precondition(maxConcurrent > 0, "maxConcurrent must be positive")
        self.maxConcurrent = maxConcurrent
        self.order = order
        self.changed = changed
        state = Locked(State(queue: WaitingDownloads(order: order)))
    }

    /// Downloads waiting for a slot.
    var waitingCount: Int { state.withLock { $0.waiting } }
    /// Downloads holding a slot.
    var runningCount: Int { state.withLock { $0.running } }

    /// Adds a download at `priority`; it may be admitted at once.
    func enqueue(priority: ImageLoadPriority) -> Ticket {
        let (ticket, resumes) = state.withLock { state in
            let ticket = state.nextTicket
            state.nextTicket += 1
            state.slots[ticket] = .waiting(priority: priority, continuation: nil)
            state.queue.insert(ticket, priority: priority)
            state.waiting += 1
            return (ticket, admit(&state))
        }
        resume(resumes)
        return ticket
    }

    /// Suspends until `ticket` holds a slot; throws `CancellationError` if the task is cancelled while waiting.
    func wait(_ ticket: Ticket) async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let result: Result<Void, any Error>? = state.withLock { state in
                    switch state.slots[ticket] {
                    case .running: return .success(())
                    case .waiting(let priority, _):
                        if Task.isCancelled {
                            _ = state.removeWaiting(ticket)
                            return .failure(CancellationError())
                        }
                        state.slots[ticket] = .waiting(priority: priority, continuation: continuation)
                        return nil
                    case nil: return .failure(CancellationError())
                    }
                }
                if let result { continuation.resume(with: result) }
            }
        } onCancel: {
            let continuation = state.withLock { $0.removeWaiting(ticket) }
            continuation?.resume(throwing: CancellationError())
            changed.notify()
        }
    }

    /// Gives up `ticket`: frees its slot (admitting the next download) or leaves the waiting list. Idempotent.
    func finish(_ ticket: Ticket) {
        let (continuation, resumes) = state.withLock {
            state -> (CheckedContinuation<Void, any Error>?, [CheckedContinuation<Void, any Error>]) in
            switch state.slots[ticket] {
            case .running:
                state.slots[ticket] = nil
                state.running -= 1
                return (nil, admit(&state))
            case .waiting:
                return (state.removeWaiting(ticket), [])
            case nil:
                return (nil, [])
            }
        }
        continuation?.resume(throwing: CancellationError())
        resume(resumes)
    }

    /// Moves a waiting download to `priority`; no effect once it runs.
    func setPriority(_ priority: ImageLoadPriority, for ticket: Ticket) {
        state.withLock { state in
            guard case .waiting(let old, let continuation) = state.slots[ticket], old != priority else { return }
            state.slots[ticket] = .waiting(priority: priority, continuation: continuation)
            state.queue.insert(ticket, priority: priority)
            state.entryWentStale()
        }
        changed.notify()
    }

    /// Admits the best waiting downloads while slots are free; returns the continuations to resume.
    private func admit(_ state: inout State) -> [CheckedContinuation<Void, any Error>] {
        var resumes: [CheckedContinuation<Void, any Error>] = []
        while state.running < maxConcurrent, state.waiting > 0, let entry = state.queue.popFirst() {
            guard case .waiting(let priority, let continuation) = state.slots[entry.ticket], priority == entry.priority
            else {
                state.queue.droppedStale()
                continue
            }
            state.slots[entry.ticket] = .running
            state.waiting -= 1
            state.running += 1
            if let continuation { resumes.append(continuation) }
        }
        return resumes
    }

    private func resume(_ continuations: [CheckedContinuation<Void, any Error>]) {
        for continuation in continuations { continuation.resume() }
        changed.notify()
    }
}
