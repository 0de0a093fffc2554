import CoreMetrics
import Foundation
import Logging
import ServiceLifecycle
import Testing
import WebImage

@testable import WebImageServer

/// The OTLP metrics exporter when one label is used for two kinds of instrument: each handler keeps its own series and
/// both are exported (the second used to replace the first, which then recorded into a series never exported).
@Suite struct OTLPMetricsKindsTests {
    @Test func aLabelUsedAsACounterAndAGaugeExportsBoth() async throws {
        let recorder = OTLPEncodingTests.Recorder()
        let factory = OTLPMetricsFactory(
            transport: recorder, resource: [:], interval: .seconds(3600), timeout: .seconds(30), delta: false,
            logger: Logger(label: "test"))
        let group = ServiceGroup(services: [factory.exporter], logger: Logger(label: "test"))
        let running = Task { try await group.run() }
        let counter = Counter(label: "workers", factory: factory)
        Meter(label: "workers", factory: factory).set(4.0)
        counter.increment(by: 3)
        await group.triggerGracefulShutdown()
        try await running.value
        let records = recorder.requests.withLock { $0 }.flatMap { ProtobufFields.records(in: Data($0.1.protobuf())) }
        let workers = records.map(\.record).filter { $0.string(1) == "workers" }
        let sums = workers.flatMap { $0.messages(7) }.flatMap { $0.messages(1) }
        let gauges = workers.flatMap { $0.messages(5) }.flatMap { $0.messages(1) }
        #expect(sums.map { $0.number(6) } == [3])
        #expect(gauges.map { $0.number(4) } == [(4.0).bitPattern])
    }
}
