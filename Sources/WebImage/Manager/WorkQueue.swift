import Dispatch

/// Runs CPU-bound work (decoding, transforming) on dispatch threads, at most `width` jobs at once.
///
/// Keeps pixel work off Swift's cooperative pool, so a burst of decodes never starves the tasks that await network
/// and cache I/O. Waiting jobs queue in order; a job whose caller was cancelled before it started does not run.
final class WorkQueue: Sendable {
    private struct State {
        var running = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    let width: Int
    private let state = Locked(State())
    private let queue = DispatchQueue(label: "swift-web-image.work", qos: .userInitiated, attributes: .concurrent)

    init(width: Int) { self.width = max(width, 1) }

    /// How many jobs hold a slot now.
    var running: Int { state.withLock { $0.running } }

    /// Runs `work` on a dispatch thread once a slot is free and returns its result.
    func run<T: Sendable>(_ work: @escaping @Sendable () throws(WebImageError) -> T) async throws(WebImageError) -> T {
        await acquire()
        defer { release() }
        try Task.checkCancellation(or: WebImageError(.cancelled, "the request was cancelled"))
        let result: Result<T, WebImageError> = await withCheckedContinuation { continuation in
            queue.async {
                do throws(WebImageError) { continuation.resume(returning: .success(try work())) } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let started = state.withLock { state -> Bool in
                if state.running < width {
                    state.running += 1
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if started { continuation.resume() }
        }
    }

    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiting.isEmpty {
                state.running -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}

extension Task where Success == Never, Failure == Never {
    /// Throws `error` when the current task is cancelled.
    static func checkCancellation(or error: WebImageError) throws(WebImageError) {
        if Task.isCancelled { throw error }
    }
}
