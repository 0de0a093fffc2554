/// Admits at most ``width`` jobs at once; the others wait by priority, then in FIFO or LIFO order, at most
/// ``queueLimit`` of them, each for at most ``queueTimeout``: the package's one admission queue.
///
/// The HTTP loader admits its downloads through it (priorities that change while a download waits), and
/// ``WorkQueue`` its CPU work (the manager's decodes, the server's processing: a bounded, timed queue with
/// reservations). A lock-guarded state machine over a heap of waiting tickets (O(log n) per admission); waiting is a
/// suspended continuation, never polling. Use: `enqueue` (which may admit at once), `await wait(ticket)`, then
/// always `finish(ticket)`, whether it ran or not. A caller that must do slow work first (a server downloading a
/// source) can hold a place with ``reserve()``: running, waiting and reserved jobs together never exceed the width
/// plus the queue limit.
package final class AdmissionQueue: Sendable {
    /// One job's place.
    package typealias Ticket = Int

    /// Why a job was not admitted.
    package enum Refusal: Error, Sendable {
        /// Every slot and queue place was taken.
        case full
        /// The job waited longer than the queue timeout.
        case timedOut
        /// The job's caller was cancelled, or gave its ticket up, before it was admitted.
        case cancelled
        /// ``shutdown()`` was called.
        case shutDown
    }

    /// Jobs running and waiting, as the change observer hears of them.
    package struct Load: Sendable, Equatable {
        /// Jobs holding a slot.
        package var running = 0
        /// Jobs waiting for one.
        package var waiting = 0

        /// No job running or waiting.
        package init() {}

        init(running: Int, waiting: Int) {
            self.running = running
            self.waiting = waiting
        }
    }

    private enum Slot {
        case waiting(priority: ImageLoadPriority, continuation: CheckedContinuation<Refusal?, Never>?)
        case running
    }

    private struct State {
        var slots: [Ticket: Slot] = [:]
        var heap: WaitingTickets
        var running = 0
        var waiting = 0
        /// Places held by callers that have not enqueued their job yet.
        var reserved = 0
        var nextTicket = 0
        /// The timers of waiting tickets, by ticket.
        var timers: [Ticket: Task<Void, Never>] = [:]
        var shutDown = false

        var load: Load { Load(running: running, waiting: waiting) }

        /// Takes a waiting ticket out of the slots, leaving its heap entry stale; its continuation, if it waits.
        mutating func removeWaiting(_ ticket: Ticket) -> CheckedContinuation<Refusal?, Never>?? {
            guard case .waiting(_, let continuation) = slots.removeValue(forKey: ticket) else { return nil }
            waiting -= 1
            timers.removeValue(forKey: ticket)?.cancel()
            entryWentStale()
            return .some(continuation)
        }

        mutating func entryWentStale() {
            guard heap.noteStale() else { return }
            var current: [Ticket: ImageLoadPriority] = [:]
            for (ticket, slot) in slots { if case .waiting(let priority, _) = slot { current[ticket] = priority } }
            heap.sweep(keeping: current)
        }
    }

    /// The most jobs running at once.
    package let width: Int
    /// The most jobs waiting for a slot; more are refused at once.
    package let queueLimit: Int
    /// The longest a job waits for a slot; `nil` waits as long as it takes.
    package let queueTimeout: Duration?
    /// Slots plus queue places: the most jobs running, waiting and reserved together.
    private let capacity: Int
    private let state: Locked<State>
    private let onChange: @Sendable (Load) -> Void

    /// A queue running `width` jobs at once, with `queueLimit` waiting in `order` for at most `queueTimeout`;
    /// `onChange` hears every change of the load, under the queue's lock and so in order (it must not call back into
    /// the queue).
    package init(
        width: Int, queueLimit: Int = .max, queueTimeout: Duration? = nil, order: ImageDownloadOrder = .fifo,
        onChange: @escaping @Sendable (Load) -> Void = { _ in }
    ) {
        self.width = max(width, 1)
        self.queueLimit = max(queueLimit, 0)
        self.queueTimeout = queueTimeout
        capacity = self.width.addingReportingOverflow(self.queueLimit).overflow ? .max : self.width + self.queueLimit
        self.onChange = onChange
        state = Locked(State(heap: WaitingTickets(order: order)))
    }

    /// Jobs waiting for a slot.
    package var waitingCount: Int { state.withLock { $0.waiting } }
    /// Jobs holding a slot.
    package var runningCount: Int { state.withLock { $0.running } }

    /// Holds a place for a job that will be enqueued later; `false` when slots, queue and reservations are full.
    /// Hand the place to ``enqueue(priority:reserved:)`` or give it back with ``unreserve()``.
    package func reserve() -> Bool {
        state.withLock { state in
            guard !state.shutDown, state.running + state.waiting + state.reserved < capacity else { return false }
            state.reserved += 1
            return true
        }
    }

    /// Gives back a place taken by ``reserve()`` whose job will not be enqueued.
    package func unreserve() {
        state.withLock { $0.reserved = max(0, $0.reserved - 1) }
    }

    /// Adds a job at `priority`; it may be admitted at once. With `reserved`, the place taken by ``reserve()`` is
    /// used up. Refused when every slot and queue place is taken, or after ``shutdown()``.
    package func enqueue(
        priority: ImageLoadPriority = .normal, reserved: Bool = false
    ) -> Result<Ticket, Refusal> {
        let (outcome, admitted) = state.withLock {
            state -> (Result<Ticket, Refusal>, [CheckedContinuation<Refusal?, Never>]) in
            if reserved { state.reserved = max(0, state.reserved - 1) }
            if state.shutDown { return (.failure(.shutDown), []) }
            guard state.running < width || state.waiting < queueLimit else { return (.failure(.full), []) }
            let ticket = state.nextTicket
            state.nextTicket += 1
            state.slots[ticket] = .waiting(priority: priority, continuation: nil)
            state.heap.insert(ticket, priority: priority)
            state.waiting += 1
            defer { onChange(state.load) }
            return (.success(ticket), admit(&state))
        }
        for continuation in admitted { continuation.resume(returning: nil) }
        return outcome
    }

    /// Suspends until `ticket` holds a slot; the refusal when it never will (timed out, cancelled, given up, shut
    /// down).
    package func wait(_ ticket: Ticket) async -> Refusal? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Refusal?, Never>) in
                let answer = state.withLock { state -> Refusal?? in
                    switch state.slots[ticket] {
                    case .running: return .some(nil)
                    case .waiting(let priority, _):
                        if Task.isCancelled {
                            _ = state.removeWaiting(ticket)
                            onChange(state.load)
                            return .some(.cancelled)
                        }
                        state.slots[ticket] = .waiting(priority: priority, continuation: continuation)
                        if let timeout = queueTimeout {
                            state.timers[ticket] = Task { [weak self] in
                                try? await Task.sleep(for: timeout)
                                if !Task.isCancelled { self?.expire(ticket, .timedOut) }
                            }
                        }
                        return nil
                    case nil: return .some(state.shutDown ? .shutDown : .cancelled)
                    }
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            expire(ticket, .cancelled)
        }
    }

    /// Gives up `ticket`: frees its slot (admitting the next job) or leaves the waiting list. Idempotent.
    package func finish(_ ticket: Ticket) {
        let (waiter, admitted) = state.withLock {
            state -> (CheckedContinuation<Refusal?, Never>?, [CheckedContinuation<Refusal?, Never>]) in
            defer { onChange(state.load) }
            switch state.slots[ticket] {
            case .running:
                state.slots[ticket] = nil
                state.running -= 1
                return (nil, admit(&state))
            case .waiting: return (state.removeWaiting(ticket) ?? nil, [])
            case nil: return (nil, [])
            }
        }
        waiter?.resume(returning: .cancelled)
        for continuation in admitted { continuation.resume(returning: nil) }
    }

    /// Moves a waiting job to `priority`; no effect once it runs.
    package func setPriority(_ priority: ImageLoadPriority, for ticket: Ticket) {
        state.withLock { state in
            guard case .waiting(let old, let continuation) = state.slots[ticket], old != priority else { return }
            state.slots[ticket] = .waiting(priority: priority, continuation: continuation)
            state.heap.insert(ticket, priority: priority)
            state.entryWentStale()
            onChange(state.load)
        }
    }

    /// Refuses every waiting and later job; jobs already running finish.
    package func shutdown() {
        let waiters = state.withLock { state -> [CheckedContinuation<Refusal?, Never>] in
            state.shutDown = true
            let tickets = state.slots.compactMap { ticket, slot -> Ticket? in
                if case .waiting = slot { return ticket }
                return nil
            }
            defer { onChange(state.load) }
            return tickets.compactMap { state.removeWaiting($0) ?? nil }
        }
        for waiter in waiters { waiter.resume(returning: .shutDown) }
    }

    /// Takes waiting `ticket` out of the queue, refused.
    private func expire(_ ticket: Ticket, _ refusal: Refusal) {
        let waiter = state.withLock { state -> CheckedContinuation<Refusal?, Never>? in
            guard let removed = state.removeWaiting(ticket) else { return nil }
            onChange(state.load)
            return removed
        }
        waiter?.resume(returning: refusal)
    }

    /// Admits the best waiting jobs while slots are free; returns the continuations to resume.
    private func admit(_ state: inout State) -> [CheckedContinuation<Refusal?, Never>] {
        var resumes: [CheckedContinuation<Refusal?, Never>] = []
        while state.running < width, state.waiting > 0, let entry = state.heap.popFirst() {
            guard case .waiting(let priority, let continuation) = state.slots[entry.ticket], priority == entry.priority
            else {
                state.heap.droppedStale()
                continue
            }
            state.slots[entry.ticket] = .running
            state.timers.removeValue(forKey: entry.ticket)?.cancel()
            state.waiting -= 1
            state.running += 1
            if let continuation { resumes.append(continuation) }
        }
        return resumes
    }
}
