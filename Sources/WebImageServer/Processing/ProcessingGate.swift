import NIOConcurrencyHelpers

/// Admission for processing runs: a bounded number run at once, a bounded number wait, the rest are refused (503).
///
/// Decoding and resampling are CPU-bound; without a bound, a burst of distinct requests would start them all at
/// once and every request would slow down together.
final class ProcessingGate: Sendable {
    private struct State {
        var running = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    let slots: Int
    let queueLimit: Int
    /// Runs and waiters (`NIOLockedValueBox`: the library's `Locked` is internal to it).
    private let state = NIOLockedValueBox(State())

    init(slots: Int, queueLimit: Int) {
        self.slots = max(1, slots)
        self.queueLimit = max(0, queueLimit)
    }

    /// Runs `work` in a slot, waiting for one if needed; throws 503 when the queue is full.
    func run<T>(_ work: () async throws(ImageServerError) -> T) async throws(ImageServerError) -> T {
        try await acquire()
        defer { release() }
        return try await work()
    }

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
        case .run: return
        case .refuse: throw ImageServerError(status: 503, "server is busy")
        case .wait:
            await withCheckedContinuation { continuation in
                let runsNow = state.withLockedValue { state -> Bool in
                    if state.running < slots {
                        state.running += 1
                        return true
                    }
                    state.waiting.append(continuation)
                    return false
                }
                if runsNow { continuation.resume() }
            }
        }
    }

    /// Frees a slot: hands it to the first waiter, if any.
    private func release() {
        let next = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            if state.waiting.isEmpty {
                state.running -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
