import WebImage

/// Admission for processing runs: the package's ``WorkQueue`` sized by the server's limits, with imgproxy's answers
/// (503 with `Retry-After`) for what it refuses, the queue's gauges, and the idle callback.
///
/// A bounded number run at once on the queue's dispatch threads, a bounded number wait for at most the queue timeout,
/// the rest are refused at once. A request that must download its source first takes a place with ``reserve()``
/// before the download, so a saturated gate refuses it before any work. Decoding and resampling are CPU-bound; they
/// run off Swift's cooperative pool, so cache hits, 304s and the metrics endpoint never wait behind them.
final class ProcessingGate: Sendable {
    private let queue: WorkQueue
    private let metrics: ServerMetrics
    private let whenIdle: (@Sendable () -> Void)?
    /// Counts the times processing went idle or busy, so an idle callback sees whether it still is.
    private let idleEpoch: Locked<Int>

    init(
        slots: Int, queueLimit: Int, queueTimeout: Duration, metrics: ServerMetrics,
        whenIdle: (@Sendable () -> Void)? = nil
    ) {
        self.metrics = metrics
        self.whenIdle = whenIdle
        let idleEpoch = Locked(0)
        self.idleEpoch = idleEpoch
        let last = Locked(AdmissionQueue.Load())
        queue = WorkQueue(
            width: slots, queueLimit: queueLimit, queueTimeout: queueTimeout, label: "webimage.processing"
        ) { load in
            let previous = last.withLock { last in
                defer { last = load }
                return last
            }
            metrics.load(running: load.running, waiting: load.waiting, slots: slots)
            if load.running != previous.running { idleEpoch.withLock { $0 += 1 } }
        }
        metrics.load(running: 0, waiting: 0, slots: slots)
    }

    /// How many runs may hold a slot at once.
    var slots: Int { queue.width }

    /// How many more may wait for one.
    var queueLimit: Int { queue.queueLimit }

    /// How many runs hold a slot now.
    var running: Int { queue.running }

    /// How many requests wait for a slot now.
    var waiting: Int { queue.waiting }

    /// Holds a place for a run that first downloads its source; throws 503 when runs, waiters and reservations fill
    /// the slots and the queue. Hand the place to ``run(reserved:_:)`` or give it back with ``unreserve()``.
    func reserve() throws(ImageServerError) {
        guard queue.reserve() else { throw ImageServerError(status: 503, "server is busy", retryAfter: 1) }
    }

    /// Gives back a place taken by ``reserve()`` that will not run (its download failed).
    func unreserve() { queue.unreserve() }

    /// Runs `work` in a slot, waiting for a slot if needed; throws 503 when the queue is full or the wait exceeds the
    /// queue timeout. With `reserved`, the place taken by ``reserve()`` is used up.
    func run<T: Sendable>(
        reserved: Bool = false, _ work: @escaping @Sendable () throws(ImageServerError) -> T
    ) async throws(ImageServerError) -> T {
        let start = ContinuousClock.now
        let ran = Locked(false)
        // The idle check is scheduled once the slot is given back (the queue's `run` has returned): scheduled from
        // the work itself, a check whose second passed before a slow machine resumed this task saw the slot still
        // held and never called.
        defer { if let whenIdle, ran.withLock({ $0 }) { afterRun(whenIdle) } }
        return try await queue.run(reserved: reserved, refusal: Self.error) { [metrics] () throws(ImageServerError) in
            metrics.waited(since: start)
            ran.withLock { $0 = true }
            return try work()
        }
    }

    /// Refuses later runs; the runs in progress finish.
    func shutdown() async { queue.shutdown() }

    /// imgproxy's answer to a run the queue refused.
    private static func error(_ refusal: AdmissionQueue.Refusal) -> ImageServerError {
        switch refusal {
        case .full: ImageServerError(status: 503, "server is busy", retryAfter: 1)
        case .timedOut: ImageServerError(status: 503, "server is busy: no processing slot in time", retryAfter: 1)
        case .cancelled: ImageServerError(status: 503, "request cancelled", retryAfter: 1)
        case .shutDown: ImageServerError(status: 503, "server is shutting down", retryAfter: 1)
        }
    }

    /// Calls `whenIdle` a second after a run gave its slot back unless another run started or ended meanwhile, or one
    /// still runs.
    private func afterRun(_ whenIdle: @escaping @Sendable () -> Void) {
        let epoch = idleEpoch.withLock { $0 }
        Task.detached(priority: .low) { [weak self] in
            try? await Task.sleep(for: .seconds(1))
            guard let self, self.idleEpoch.withLock({ $0 == epoch }), self.queue.running == 0 else { return }
            whenIdle()
        }
    }
}
