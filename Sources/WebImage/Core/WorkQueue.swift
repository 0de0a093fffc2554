import Dispatch

/// Runs CPU-bound work (decoding, transforming, a server's processing) on dispatch threads, admitted by an
/// ``AdmissionQueue``: at most ``width`` jobs at once, a bounded, timed queue in front, reservations.
///
/// Keeps pixel work off Swift's cooperative pool, so a burst of decodes never starves the tasks that await network
/// and cache I/O. Waiting jobs queue in order; a job whose caller is cancelled while it waits leaves the queue and
/// never runs.
package final class WorkQueue: Sendable {
    private let admission: AdmissionQueue
    private let queue: DispatchQueue

    /// A queue running `width` jobs at once, with `queueLimit` waiting for at most `queueTimeout`; `onChange` hears
    /// every change of the load (under the queue's lock, so in order: it must not call back into the queue).
    package init(
        width: Int, queueLimit: Int = .max, queueTimeout: Duration? = nil, label: String = "swift-web-image.work",
        onChange: @escaping @Sendable (AdmissionQueue.Load) -> Void = { _ in }
    ) {
        admission = AdmissionQueue(width: width, queueLimit: queueLimit, queueTimeout: queueTimeout, onChange: onChange)
        queue = DispatchQueue(label: label, qos: .userInitiated, attributes: .concurrent)
    }

    /// The most jobs running at once.
    package var width: Int { admission.width }

    /// The most jobs waiting for a slot.
    package var queueLimit: Int { admission.queueLimit }

    /// How many jobs hold a slot now.
    package var running: Int { admission.runningCount }

    /// How many jobs wait for a slot now.
    package var waiting: Int { admission.waitingCount }

    /// Holds a place for a job that will run later; `false` when slots, queue and reservations are full.
    package func reserve() -> Bool { admission.reserve() }

    /// Gives back a place taken by ``reserve()`` whose job will not run.
    package func unreserve() { admission.unreserve() }

    /// Runs `work` on a dispatch thread once a slot is free and returns its result; a job that cannot run throws
    /// `refusal(why)`. With `reserved`, the place taken by ``reserve()`` is used up.
    package func run<T: Sendable, Failure: Error>(
        reserved: Bool = false, refusal: (AdmissionQueue.Refusal) -> Failure,
        _ work: @escaping @Sendable () throws(Failure) -> T
    ) async throws(Failure) -> T {
        let ticket: AdmissionQueue.Ticket
        switch admission.enqueue(reserved: reserved) {
        case .success(let admitted): ticket = admitted
        case .failure(let refused): throw refusal(refused)
        }
        defer { admission.finish(ticket) }
        if let refused = await admission.wait(ticket) { throw refusal(refused) }
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
    package func shutdown() { admission.shutdown() }
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
