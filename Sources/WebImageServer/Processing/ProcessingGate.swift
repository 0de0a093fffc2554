import NIOConcurrencyHelpers
import NIOPosix

/// Admission for processing runs: a bounded number run at once on the gate's own threads, a bounded number wait for
/// at most the queue timeout, the rest are refused at once (503 with `Retry-After`).
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
        var nextID = 0
        var waiting: [Waiter] = []
        /// The timers of waiters that still wait, by waiter.
        var timers: [Int: Task<Void, Never>] = [:]
    }

    let slots: Int
    let queueLimit: Int
    let queueTimeout: Duration
    private let metrics: ServerMetrics
    private let pool: NIOThreadPool
    /// Runs, waiters and their timers (`NIOLockedValueBox`: the library's `Locked` is internal to it).
    private let state = NIOLockedValueBox(State())

    init(slots: Int, queueLimit: Int, queueTimeout: Duration, metrics: ServerMetrics) {
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

    /// Runs `work` in a slot on the gate's threads, waiting for a slot if needed; throws 503 when the queue is full or
    /// the wait exceeds the queue timeout.
    func run<T: Sendable>(
        _ work: @escaping @Sendable () throws(ImageServerError) -> T
    ) async throws(ImageServerError) -> T {
        let start = ContinuousClock.now
        try await acquire()
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

    private func acquire() async throws(ImageServerError) {
        enum Decision { case run, wait, refuse }
        let decision = state.withLockedValue { state -> Decision in
            if state.running < slots {
                state.running += 1
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
                        state.running += 1
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

    /// Frees a slot: hands it to the first waiter, if any.
    private func release() {
        metrics.inFlight.decrement()
        let next = state.withLockedValue { state -> Waiter? in
            if state.waiting.isEmpty {
                state.running -= 1
                return nil
            }
            let waiter = state.waiting.removeFirst()
            state.timers.removeValue(forKey: waiter.id)?.cancel()
            return waiter
        }
        guard let next else { return }
        metrics.queueDepth.decrement()
        next.continuation.resume(returning: true)
    }
}
