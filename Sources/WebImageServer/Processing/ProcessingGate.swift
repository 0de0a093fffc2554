import NIOConcurrencyHelpers
import NIOPosix

/// Admission for processing runs: a bounded number run at once on the gate's own threads, a bounded number wait for
/// at most the queue timeout, the rest are refused at once (503 with `Retry-After`).
///
/// A request that must download its source first takes a place with ``reserve()`` before the download, so a saturated
/// gate refuses it before any work; runs, waiters and reservations together never exceed the slots plus the queue.
///
/// Decoding and resampling are CPU-bound; without a bound, a burst of distinct requests would start them all at
/// once and every request would slow down together. They run on the gate's threads, not on Swift's cooperative pool,
/// so cache hits, 304s and the metrics endpoint never wait behind them.
final class ProcessingGate: Sendable {
    private struct Waiter {
        let id: Int
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var running = 0
        /// Places held by requests still downloading their source.
        var reserved = 0
        var nextID = 0
        var waiting: [Waiter] = []
        /// The timers of waiters that still wait, by waiter.
        var timers: [Int: Task<Void, Never>] = [:]
        /// Counts the times processing went idle or busy, so an idle callback sees whether it still is.
        var idleEpoch = 0

        /// Takes a free slot for a run.
        mutating func admit() {
            running += 1
            idleEpoch += 1
        }
    }

    let slots: Int
    let queueLimit: Int
    let queueTimeout: Duration
    private let metrics: ServerMetrics
    private let whenIdle: (@Sendable () -> Void)?
    private let pool: NIOThreadPool
    /// Runs, waiters and their timers (`NIOLockedValueBox`: the library's `Locked` is internal to it).
    private let state = NIOLockedValueBox(State())

    init(
        slots: Int, queueLimit: Int, queueTimeout: Duration, metrics: ServerMetrics,
        whenIdle: (@Sendable () -> Void)? = nil
    ) {
        self.whenIdle = whenIdle
        self.slots = max(1, slots)
        self.queueLimit = max(0, queueLimit)
        self.queueTimeout = queueTimeout
        self.metrics = metrics
        pool = NIOThreadPool(numberOfThreads: self.slots)
        pool.start()
    }

    /// How many runs hold a slot now.
    var running: Int { state.withLockedValue { $0.running } }

    /// How many requests wait for a slot now.
    var waiting: Int { state.withLockedValue { $0.waiting.count } }

    /// Holds a place for a run that first downloads its source; throws 503 when runs, waiters and reservations fill
    /// the slots and the queue. Hand the place to ``run(reserved:_:)`` or give it back with ``unreserve()``.
    func reserve() throws(ImageServerError) {
        let held = state.withLockedValue { state -> Bool in
            guard state.running + state.waiting.count + state.reserved < slots + queueLimit else { return false }
            state.reserved += 1
            return true
        }
        guard held else { throw ImageServerError(status: 503, "server is busy", retryAfter: 1) }
    }

    /// Gives back a place taken by ``reserve()`` that will not run (its download failed).
    func unreserve() {
        state.withLockedValue { $0.reserved -= 1 }
    }

    /// Runs `work` in a slot on the gate's threads, waiting for a slot if needed; throws 503 when the queue is full or
    /// the wait exceeds the queue timeout. With `reserved`, the place taken by ``reserve()`` is used up.
    func run<T: Sendable>(
        reserved: Bool = false, _ work: @escaping @Sendable () throws(ImageServerError) -> T
    ) async throws(ImageServerError) -> T {
        let start = ContinuousClock.now
        try await acquire(reserved: reserved)
        metrics.queueWait.recordInterval(since: start)
        defer { release() }
        let outcome: Result<T, ImageServerError>
        do {
            outcome = try await pool.runIfActive {
                do throws(ImageServerError) { return .success(try work()) } catch { return .failure(error) }
            }
        } catch {
            throw ImageServerError(status: 503, "server is shutting down", retryAfter: 1)
        }
        return try outcome.get()
    }

    /// Stops the threads once the runs in progress are done.
    func shutdown() async { try? await pool.shutdownGracefully() }

    private func acquire(reserved: Bool) async throws(ImageServerError) {
        enum Decision { case run, wait, refuse }
        let decision = state.withLockedValue { state -> Decision in
            if reserved { state.reserved -= 1 }
            if state.running < slots {
                state.admit()
                return .run
            }
            return state.waiting.count < queueLimit ? .wait : .refuse
        }
        switch decision {
        case .run: metrics.inFlight.increment()
        case .refuse: throw ImageServerError(status: 503, "server is busy", retryAfter: 1)
        case .wait:
            guard await wait() else {
                throw ImageServerError(status: 503, "server is busy: no processing slot in time", retryAfter: 1)
            }
            metrics.inFlight.increment()
        }
    }

    /// Waits in the queue; `true` once admitted, `false` when the queue is full, the wait timed out or the request
    /// was cancelled.
    private func wait() async -> Bool {
        let id = state.withLockedValue { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let admitted = state.withLockedValue { state -> Bool? in
                    if state.running < slots {
                        state.admit()
                        return true
                    }
                    guard state.waiting.count < queueLimit, !Task.isCancelled else { return false }
                    state.waiting.append(Waiter(id: id, continuation: continuation))
                    return nil
                }
                if let admitted {
                    continuation.resume(returning: admitted)
                    return
                }
                metrics.queueDepth.increment()
                let timeout = queueTimeout
                let timer = Task { [weak self] in
                    try? await Task.sleep(for: timeout)
                    if !Task.isCancelled { self?.expire(id) }
                }
                state.withLockedValue { state in
                    if state.waiting.contains(where: { $0.id == id }) {
                        state.timers[id] = timer
                    } else {
                        timer.cancel()
                    }
                }
            }
        } onCancel: {
            expire(id)
        }
    }

    /// Takes waiter `id` out of the queue, refused (timed out or cancelled).
    private func expire(_ id: Int) {
        let waiter = state.withLockedValue { state -> Waiter? in
            guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
            state.timers.removeValue(forKey: id)?.cancel()
            return state.waiting.remove(at: index)
        }
        guard let waiter else { return }
        metrics.queueDepth.decrement()
        waiter.continuation.resume(returning: false)
    }

    /// Calls `whenIdle` after a second unless a run started since processing went idle at `epoch`.
    private func callWhenStillIdle(_ epoch: Int, _ whenIdle: @escaping @Sendable () -> Void) {
        Task.detached(priority: .background) { [weak self] in
            try? await Task.sleep(for: .seconds(1))
            guard let self, self.state.withLockedValue({ $0.idleEpoch == epoch && $0.running == 0 }) else { return }
            whenIdle()
        }
    }

    /// Frees a slot: hands it to the first waiter, if any.
    private func release() {
        metrics.inFlight.decrement()
        let (next, idle) = state.withLockedValue { state -> (Waiter?, Int?) in
            if state.waiting.isEmpty {
                state.running -= 1
                guard state.running == 0 else { return (nil, nil) }
                state.idleEpoch += 1
                return (nil, state.idleEpoch)
            }
            let waiter = state.waiting.removeFirst()
            state.timers.removeValue(forKey: waiter.id)?.cancel()
            return (waiter, nil)
        }
        if let idle, let whenIdle { callWhenStillIdle(idle, whenIdle) }
        guard let next else { return }
        metrics.queueDepth.decrement()
        next.continuation.resume(returning: true)
    }
}
