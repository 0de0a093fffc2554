/// Wakes tasks waiting for some state to change; lets tests wait for a queue state without polling.
///
/// `notify()` takes only this type's own lock, so it may be called from anywhere.
final class ChangeSignal: Sendable {
    private struct State {
        var generation = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Locked(State())

    /// Wakes every waiter.
    func notify() {
        let waiters = state.withLock { state in
            state.generation += 1
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once `condition()` is true, re-checking after every `notify()`.
    func wait(until condition: () -> Bool) async {
        while true {
            let generation = state.withLock { $0.generation }
            if condition() { return }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state in
                    guard state.generation == generation else { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if ready { continuation.resume() }
            }
        }
    }
}
