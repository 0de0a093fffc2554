import Logging
import ServiceLifecycle
import Testing
import WebImage

@testable import WebImageServer

/// The OTLP batch processor on graceful shutdown: an export in flight when the shutdown comes is not lost with its
/// batch (the spans of the last requests, which the exporters are stopped last to deliver).
@Suite struct OTLPBatcherShutdownTests {
    /// A transport whose first export waits until it is cancelled; it keeps every later one.
    final class StallingTransport: OTLPTransport {
        let endpoint = "stalling"
        /// Whether the first export has started, and the requests of the later ones (guarded by their locks).
        let stalled = Locked(false)
        let exported = Locked<[OTLPMessage]>([])

        func export(_ request: OTLPMessage, signal: OTLPSignal) async throws {
            let first = stalled.withLock { started in
                defer { started = true }
                return !started
            }
            if first { try await Task.sleep(for: .seconds(3600)) }
            exported.withLock { $0.append(request) }
        }
        func run() async throws {}
        func shutdown() async {}
    }

    @Test func aShutdownDuringAnExportExportsItsBatchOnceMore() async throws {
        let transport = StallingTransport()
        let batcher = OTLPBatcher(
            .traces,
            limits: OTLPBatchLimits(
                scheduleDelay: .seconds(3600), maximumQueueSize: 10, maximumBatchSize: 1, exportTimeout: .seconds(60)),
            transport: transport, resource: .resource(["service.name": "unit"]), scope: "imgproxy",
            logger: Logger(label: "test"))
        let group = ServiceGroup(services: [batcher], logger: Logger(label: "test"))
        let running = Task { try await group.run() }
        batcher.add(.scope("the last request's span"))
        let started = ContinuousClock.now
        while !transport.stalled.withLock({ $0 }), ContinuousClock.now - started < .seconds(60) {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(transport.stalled.withLock { $0 }, "the first export began")
        await group.triggerGracefulShutdown()
        try await running.value
        #expect(transport.exported.withLock { $0.count } == 1, "the cancelled export's batch went out at the end")
    }
}
