import Dispatch
import Foundation

/// Runs librsvg work on a thread of its own and waits for it no longer than a deadline.
///
/// librsvg cannot cancel a render (cairo has no way to stop), so a render past its deadline is abandoned: the caller
/// gets ``WebImageError/Code/timedOut`` at once and the thread finishes on its own, freeing what it made. The bytes
/// are bounded before (``SVGPrecheck``), so an abandoned render ends; at most ``maxAbandoned`` of them may run at a
/// time, past which SVG work is refused (also `timedOut`) until one ends, so that hostile files cannot pile up threads.
enum SVGWorker {
    /// The most renders past their deadline that may still run.
    static let maxAbandoned = 4

    /// Work still running after its caller stopped waiting.
    private static let abandoned = Locked(0)

    /// The work's result, handed from the worker thread to the caller.
    private final class Outcome<Value: Sendable>: Sendable {
        let value = Locked<Result<Value, WebImageError>?>(nil)
        /// Whether the caller has given up waiting; set under `value`'s lock together with the check of the result.
        let gaveUp = Locked(false)
        let done = DispatchSemaphore(value: 0)
    }

    /// Runs `work` on a new thread with a large stack and returns its result, or throws `timedOut` after `deadline`.
    static func run<Value: Sendable>(
        deadline: Duration, _ work: @escaping @Sendable () throws(WebImageError) -> Value
    ) throws(WebImageError) -> Value {
        guard abandoned.withLock({ $0 }) < maxAbandoned else {
            throw WebImageError(.timedOut, "too many SVG renders are still running past their deadline")
        }
        let outcome = Outcome<Value>()
        let thread = Thread {
            let result: Result<Value, WebImageError>
            do throws(WebImageError) { result = .success(try work()) } catch { result = .failure(error) }
            outcome.value.withLock { $0 = result }
            outcome.done.signal()
            if outcome.gaveUp.withLock({ $0 }) { abandoned.withLock { $0 -= 1 } }
        }
        thread.stackSize = 16 << 20
        thread.start()
        let (seconds, attoseconds) = deadline.components
        let (whole, overflow) = max(0, seconds).multipliedReportingOverflow(by: 1_000_000_000)
        let (sum, overflow2) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        let nanoseconds = overflow || overflow2 ? Int64.max : max(0, sum)
        if outcome.done.wait(timeout: .now() + .nanoseconds(Int(clamping: nanoseconds))) == .timedOut {
            // The worker either finishes before this mark (then it does not count itself) or after it (then it
            // counts itself out): both marks are read and written under `gaveUp`'s lock.
            let stillRunning = outcome.gaveUp.withLock { gaveUp in
                let running = outcome.value.withLock { $0 == nil }
                gaveUp = running
                if running { abandoned.withLock { $0 += 1 } }
                return running
            }
            if stillRunning {
                throw WebImageError(.timedOut, "the SVG took longer than \(deadline) to render")
            }
        }
        guard let result = outcome.value.withLock({ $0 }) else {
            throw WebImageError(.timedOut, "the SVG took longer than \(deadline) to render")
        }
        return try result.get()
    }
}
