import Dispatch

/// Runs CPU-bound work (decoding, transforming, a server's processing) on dispatch threads, at most ``width`` jobs at
/// once, with a bounded, timed queue in front: the package's one admission queue.
///
/// Keeps pixel work off Swift's cooperative pool, so a burst of decodes never starves the tasks that await network
/// and cache I/O. Waiting jobs queue in order, at most ``queueLimit`` of them, each for at most ``queueTimeout``; a
/// job whose caller is cancelled while it waits leaves the queue and never runs. A caller that must do slow work
/// first (a server downloading a source) can hold a place with ``reserve()``: running, waiting and reserved jobs
/// together never exceed the width plus the queue limit.
package final class WorkQueue: Sendable {
    /// Why a job was not run.
    package enum Refusal: Error, Sendable {
        /// Every slot and queue place was taken.
        case full
        /// The job waited longer than ``queueTimeout``.
        case timedOut
        /// The caller was cancelled before the job started.
        case cancelled
        /// ``shutdown()`` was called.
        case shutDown
    }

    /// Jobs running and waiting, as ``onChange`` hears of them.
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

    private struct Waiter {
        let id: Int
        let continuation: CheckedContinuation<Refusal?, Never>
    }

    private struct State {
        var running = 0
        /// Places held by callers that have not queued their job yet.
        var reserved = 0
        var nextID = 0
        var waiting: [Waiter] = []
        /// The timers of waiters that still wait, by waiter.
        var timers: [Int: Task<Void, Never>] = [:]
        var shutDown = false

        var load: Load { Load(running: running, waiting: waiting.count) }
    }

    /// The most jobs running at once.
    package let width: Int
    /// The most jobs waiting for a slot; more are refused at once.
    package let queueLimit: Int
    /// The longest a job waits for a slot; `nil` waits as long as it takes.
    package let queueTimeout: Duration?
    /// Slots plus queue places: the most jobs running, waiting and reserved together.
    private let capacity: Int
    private let onChange: @Sendable (Load) -> Void
    private let state = Locked(State())
    private let queue: DispatchQueue

    /// A queue running `width` jobs at once, with `queueLimit` waiting for at most `queueTimeout`; `onChange` hears
    /// every change of the load (under the queue's lock, so in order: it must not call back into the queue).
    package init(
        width: Int, queueLimit: Int = .max, queueTimeout: Duration? = nil, label: String = "swift-web-image.work",
        onChange: @escaping @Sendable (Load) -> Void = { _ in }
    ) {
        self.width = max(width, 1)
        self.queueLimit = max(queueLimit, 0)
        self.queueTimeout = queueTimeout
        capacity = self.width.addingReportingOverflow(self.queueLimit).overflow ? .max : self.width + self.queueLimit
        self.onChange = onChange
        queue = DispatchQueue(label: label, qos: .userInitiated, attributes: .concurrent)
    }

    /// How many jobs hold a slot now.
    package var running: Int { state.withLock { $0.running } }

    /// How many jobs wait for a slot now.
    package var waiting: Int { state.withLock { $0.waiting.count } }

    /// Holds a place for a job that will be queued later; `false` when slots, queue and reservations are full. Hand
    /// the place to ``run(reserved:refusal:_:)`` or give it back with ``unreserve()``.
    package func reserve() -> Bool {
        state.withLock { state in
            guard !state.shutDown, state.running + state.waiting.count + state.reserved < capacity else {
                return false
            }
            state.reserved += 1
            return true
        }
    }

    /// Gives back a place taken by ``reserve()`` whose job will not run.
    package func unreserve() {
        state.withLock { $0.reserved = max(0, $0.reserved - 1) }
    }

    /// Runs `work` on a dispatch thread once a slot is free and returns its result; a job that cannot run throws
    /// `refusal(why)`. With `reserved`, the place taken by ``reserve()`` is used up.
    package func run<T: Sendable, Failure: Error>(
        reserved: Bool = false, refusal: (Refusal) -> Failure,
        _ work: @escaping @Sendable () throws(Failure) -> T
    ) async throws(Failure) -> T {
        if let refused = await acquire(reserved: reserved) { throw refusal(refused) }
        defer { release() }
        if Task.isCancelled { throw refusal(.cancelled) }
        let result: Result<T, Failure> = await withCheckedContinuation { continuation in
            queue.async {
                do throws(Failure) { continuation.resume(returning: .success(try work())) } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    /// Refuses every waiting and later job; jobs already running finish.
    package func shutdown() {
        let waiters = state.withLock { state -> [Waiter] in
            state.shutDown = true
            for timer in state.timers.values { timer.cancel() }
            state.timers.removeAll()
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        for waiter in waiters { waiter.continuation.resume(returning: .shutDown) }
    }

    /// Takes a slot, waiting if needed; the refusal when none was taken.
    private func acquire(reserved: Bool) async -> Refusal? {
        let id = state.withLock { state -> Int in
            state.nextID &+= 1
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Refusal?, Never>) in
                let decision = state.withLock { state -> Refusal?? in
                    if reserved { state.reserved = max(0, state.reserved - 1) }
                    if state.shutDown { return .some(.shutDown) }
                    if state.running < width {
                        state.running += 1
                        onChange(state.load)
                        return .some(nil)
                    }
                    if Task.isCancelled { return .some(.cancelled) }
                    guard state.waiting.count < queueLimit else { return .some(.full) }
                    state.waiting.append(Waiter(id: id, continuation: continuation))
                    onChange(state.load)
                    return nil
                }
                if let decision {
                    continuation.resume(returning: decision)
                    return
                }
                guard let timeout = queueTimeout else { return }
                let timer = Task { [weak self] in
                    try? await Task.sleep(for: timeout)
                    if !Task.isCancelled { self?.expire(id, .timedOut) }
                }
                state.withLock { state in
                    if state.waiting.contains(where: { $0.id == id }) {
                        state.timers[id] = timer
                    } else {
                        timer.cancel()
                    }
                }
            }
        } onCancel: {
            expire(id, .cancelled)
        }
    }

    /// Takes waiter `id` out of the queue, refused.
    private func expire(_ id: Int, _ refusal: Refusal) {
        let waiter = state.withLock { state -> Waiter? in
            guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
            state.timers.removeValue(forKey: id)?.cancel()
            defer { onChange(state.load) }
            return state.waiting.remove(at: index)
        }
        waiter?.continuation.resume(returning: refusal)
    }

    /// Frees a slot: hands it to the first waiter, if any.
    private func release() {
        let next = state.withLock { state -> Waiter? in
            defer { onChange(state.load) }
            guard !state.waiting.isEmpty else {
                state.running -= 1
                return nil
            }
            let waiter = state.waiting.removeFirst()
            state.timers.removeValue(forKey: waiter.id)?.cancel()
            return waiter
        }
        next?.continuation.resume(returning: nil)
    }
}

extension WorkQueue {
    /// Runs `work` as ``run(reserved:refusal:_:)`` does, for the library's jobs: a refusal is a cancellation.
    package func run<T: Sendable>(
        _ work: @escaping @Sendable () throws(WebImageError) -> T
    ) async throws(WebImageError) -> T {
        try await run(refusal: { _ in WebImageError.cancelled }, work)
    }
}

extension Task where Success == Never, Failure == Never {
    /// Throws `error` when the current task is cancelled.
    static func checkCancellation(or error: WebImageError) throws(WebImageError) {
        if Task.isCancelled { throw error }
    }
}
