import Logging
import ServiceLifecycle
import WebImage

/// The batch processor of one signal, a service: records (spans, log records, metrics) wait in a bounded queue and are
/// exported every ``OTLPBatchLimits/scheduleDelay``, or as soon as a full batch waits, in requests of at most
/// ``OTLPBatchLimits/maximumBatchSize`` records, each within ``OTLPBatchLimits/exportTimeout``; what waits on graceful
/// shutdown is exported before ``run()`` returns. A full queue drops records, and a failed export its batch, never
/// delaying the caller; either is logged at most once a minute (`Failed to export …`).
package final class OTLPBatcher: Service {
    let signal: OTLPSignal
    private let limits: OTLPBatchLimits
    private let transport: any OTLPTransport
    private let resource: OTLPMessage
    private let scope: String
    private let logger: Logger
    private let pending = Locked<[OTLPMessage]>([])
    private let lastFailure = Locked<ContinuousClock.Instant?>(nil)
    private let wakeups: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation
    private let collect: @Sendable () -> [OTLPMessage]

    /// A batcher exporting `signal`'s records from `resource` under the scope `scope` through `transport`, failures
    /// logged to `logger` (which must not export to this batcher); `collect` adds records at each export (a metric
    /// reader's).
    init(
        _ signal: OTLPSignal, limits: OTLPBatchLimits, transport: any OTLPTransport, resource: OTLPMessage,
        scope: String, logger: Logger, collect: @escaping @Sendable () -> [OTLPMessage] = { [] }
    ) {
        self.collect = collect
        self.signal = signal
        self.limits = limits
        self.transport = transport
        self.resource = resource
        self.scope = scope
        self.logger = logger
        (wakeups, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Queues `record`; it is dropped when the queue is full.
    func add(_ record: OTLPMessage) {
        let (kept, batchWaits) = pending.withLock { pending -> (Bool, Bool) in
            guard pending.count < limits.maximumQueueSize else { return (false, false) }
            pending.append(record)
            return (true, pending.count >= limits.maximumBatchSize)
        }
        if !kept { failed("the queue of \(limits.maximumQueueSize) is full") }
        if batchWaits { wake.yield() }
    }

    /// Exports on schedule until graceful shutdown, then what is left, then closes the transport.
    package func run() async throws {
        let delay = limits.scheduleDelay
        let wake = wake
        await withDiscardingTaskGroup { group in
            group.addTask { try? await self.transport.run() }
            await cancelWhenGracefulShutdown {
                await withDiscardingTaskGroup { ticks in
                    ticks.addTask {
                        while !Task.isCancelled {
                            try? await Task.sleep(for: delay)
                            wake.yield()
                        }
                    }
                    for await _ in self.wakeups { await self.exportPending() }
                    ticks.cancelAll()
                }
            }
            await exportPending()
            await transport.shutdown()
        }
    }

    /// Exports every waiting record, a batch at a time.
    func exportPending() async {
        for record in collect() { add(record) }
        while true {
            let batch = pending.withLock { pending -> [OTLPMessage] in
                let batch = Array(pending.prefix(limits.maximumBatchSize))
                pending.removeFirst(batch.count)
                return batch
            }
            guard !batch.isEmpty else { return }
            let request = signal.request(resource: resource, scope: scope, records: batch)
            let transport = transport
            let signal = signal
            let timeout = limits.exportTimeout
            do {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await transport.export(request, signal: signal) }
                    group.addTask {
                        try await Task.sleep(for: timeout)
                        throw OTLPExportError.timedOut(timeout)
                    }
                    try await group.next()
                    group.cancelAll()
                }
            } catch  where Task.isCancelled {
                // Graceful shutdown cancelled this export: the batch goes back to the head of the queue, for the
                // final export that `run()` makes outside the cancelled scope.
                pending.withLock { $0.insert(contentsOf: batch, at: 0) }
                return
            } catch {
                failed("\(error)")
            }
        }
    }

    /// Logs a failure, at most once a minute.
    private func failed(_ reason: String) {
        let now = ContinuousClock.now
        let due = lastFailure.withLock { last in
            if let last, now - last < .seconds(60) { return false }
            last = now
            return true
        }
        guard due else { return }
        logger.warning(
            "Failed to export \(signal.name) (logged at most once a minute)",
            metadata: ["endpoint": "\(transport.endpoint)", "error": "\(reason)"])
    }
}
