import Synchronization

/// Admits at most `maxConcurrent` downloads at once, starting waiting ones by priority, then FIFO or LIFO order.
///
/// A Mutex-guarded state machine; waiting is a suspended continuation, never polling. Usage by a download:
/// `let ticket = enqueue(priority)`, `try await wait(ticket)`, then always `finish(ticket)` (waiting or not).
final class DownloadQueue: Sendable {
    typealias Ticket = Int

    private enum Slot {
        case waiting(priority: ImageLoadPriority, sequence: Int, continuation: CheckedContinuation<Void, any Error>?)
        case running
    }

    private struct State {
        var slots: [Ticket: Slot] = [:]
        var running = 0
        var waiting = 0
        var nextTicket = 0
    }

    let maxConcurrent: Int
    let order: ImageDownloadOrder
    private let state = Mutex(State())
    private let changed: ChangeSignal

    init(maxConcurrent: Int, order: ImageDownloadOrder, changed: ChangeSignal) {
        precondition(maxConcurrent > 0, "maxConcurrent must be positive")
        self.maxConcurrent = maxConcurrent
        self.order = order
        self.changed = changed
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
            state.slots[ticket] = .waiting(priority: priority, sequence: ticket, continuation: nil)
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
                    case .waiting(let priority, let sequence, _):
                        if Task.isCancelled {
                            state.slots[ticket] = nil
                            state.waiting -= 1
                            return .failure(CancellationError())
                        }
                        state.slots[ticket] = .waiting(priority: priority, sequence: sequence, continuation: continuation)
                        return nil
                    case nil: return .failure(CancellationError())
                    }
                }
                if let result { continuation.resume(with: result) }
            }
        } onCancel: {
            let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard case .waiting(_, _, let continuation) = state.slots[ticket] else { return nil }
                state.slots[ticket] = nil
                state.waiting -= 1
                return continuation
            }
            continuation?.resume(throwing: CancellationError())
            changed.notify()
        }
    }

    /// Gives up `ticket`: frees its slot (admitting the next download) or leaves the waiting list. Idempotent.
    func finish(_ ticket: Ticket) {
        let (continuation, resumes) = state.withLock {
            state -> (CheckedContinuation<Void, any Error>?, [CheckedContinuation<Void, any Error>]) in
            switch state.slots.removeValue(forKey: ticket) {
            case .running:
                state.running -= 1
                return (nil, admit(&state))
            case .waiting(_, _, let continuation):
                state.waiting -= 1
                return (continuation, [])
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
            guard case .waiting(let old, let sequence, let continuation) = state.slots[ticket], old != priority else {
                return
            }
            state.slots[ticket] = .waiting(priority: priority, sequence: sequence, continuation: continuation)
        }
        changed.notify()
    }

    /// Admits the best waiting downloads while slots are free; returns the continuations to resume.
    private func admit(_ state: inout State) -> [CheckedContinuation<Void, any Error>] {
        var resumes: [CheckedContinuation<Void, any Error>] = []
        while state.running < maxConcurrent, state.waiting > 0 {
            var best: (ticket: Ticket, priority: ImageLoadPriority, sequence: Int)?
            for (ticket, slot) in state.slots {
                guard case .waiting(let priority, let sequence, _) = slot else { continue }
                if let current = best {
                    if priority < current.priority { continue }
                    if priority == current.priority, order.isLIFO ? sequence < current.sequence : sequence > current.sequence {
                        continue
                    }
                }
                best = (ticket, priority, sequence)
            }
            guard let best, case .waiting(_, _, let continuation) = state.slots[best.ticket] else { break }
            state.slots[best.ticket] = .running
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
