import Foundation
import Synchronization
import Testing

@testable import WebImageServer

/// Admission control: slots, a bounded queue, a queue timeout, 503 with `Retry-After` beyond either.
@Suite("Server: processing gate")
struct ProcessingGateTests {
    /// Holds a gate's slots with runs that block their threads until `open()`.
    final class Blocker: Sendable {
        private let semaphore: DispatchSemaphore
        let gate: ProcessingGate
        private let count: Int
        private let tasks: [Task<Int, any Error>]

        init(_ gate: ProcessingGate, holding count: Int) async throws {
            self.gate = gate
            self.count = count
            let semaphore = DispatchSemaphore(value: 0)
            self.semaphore = semaphore
            tasks = (0..<count).map { index in
                Task { () async throws -> Int in
                    try await gate.run { () throws(ImageServerError) in
                        semaphore.wait()
                        return index
                    }
                }
            }
            try await Self.until { gate.running == count }
        }

        func open() async throws {
            for _ in 0..<count { semaphore.signal() }
            for task in tasks { _ = try await task.value }
        }

        /// Waits (yielding, at most about 30 s) until `condition` holds; fails the test otherwise.
        static func until(_ condition: @Sendable () -> Bool) async throws {
            var rounds = 0
            while !condition() {
                rounds += 1
                try #require(rounds < 3000, "condition never held")
                try await Task.sleep(for: .milliseconds(10))
            }
        }
    }

    static func gate(slots: Int, queue: Int, timeout: Duration = .seconds(30)) -> ProcessingGate {
        ProcessingGate(slots: slots, queueLimit: queue, queueTimeout: timeout, metrics: ServerMetrics())
    }

    /// The status and `Retry-After` of a run that is expected to be refused.
    static func refusal(_ gate: ProcessingGate) async -> ImageServerError? {
        do throws(ImageServerError) {
            _ = try await gate.run { () throws(ImageServerError) in 1 }
            return nil
        } catch {
            return error
        }
    }

    @Test func refusesAtOnceWhenSlotsAndQueueAreFull() async throws {
        let gate = Self.gate(slots: 2, queue: 0)
        let blocker = try await Blocker(gate, holding: 2)
        let error = await Self.refusal(gate)
        #expect(error?.status == 503)
        #expect(error?.retryAfter == 1)
        try await blocker.open()
        #expect(try await gate.run { () throws(ImageServerError) in 7 } == 7)
        await gate.shutdown()
    }

    @Test func aWaiterGivesUpAfterTheQueueTimeout() async throws {
        let gate = Self.gate(slots: 1, queue: 1, timeout: .milliseconds(50))
        let blocker = try await Blocker(gate, holding: 1)
        let error = await Self.refusal(gate)
        #expect(error?.status == 503)
        #expect(error?.message.contains("in time") == true)
        #expect(gate.waiting == 0)
        try await blocker.open()
        await gate.shutdown()
    }

    @Test func waitersRunOnceSlotsFreeAndTheQueueBoundHolds() async throws {
        let gate = Self.gate(slots: 1, queue: 2)
        let blocker = try await Blocker(gate, holding: 1)
        let waiters = (0..<2).map { index in
            Task { try await gate.run { () throws(ImageServerError) in index + 10 } }
        }
        try await Blocker.until { gate.waiting == 2 }
        #expect(await Self.refusal(gate)?.status == 503)  // a third waiter is over the queue bound
        try await blocker.open()
        #expect(try await waiters[0].value == 10)
        #expect(try await waiters[1].value == 11)
        #expect(gate.running == 0)
        await gate.shutdown()
    }

    @Test func aCancelledWaiterLeavesTheQueue() async throws {
        let gate = Self.gate(slots: 1, queue: 1)
        let blocker = try await Blocker(gate, holding: 1)
        let waiter = Task { await Self.refusal(gate) }
        try await Blocker.until { gate.waiting == 1 }
        waiter.cancel()
        #expect(await waiter.value?.status == 503)
        #expect(gate.waiting == 0)
        try await blocker.open()
        await gate.shutdown()
    }

    @Test func aReservationHoldsAPlaceUntilItRunsOrIsGivenBack() async throws {
        let gate = Self.gate(slots: 1, queue: 1)
        try gate.reserve()
        try gate.reserve()
        #expect(throws: ImageServerError.self) { try gate.reserve() }
        gate.unreserve()
        #expect(try await gate.run(reserved: true) { () throws(ImageServerError) in 7 } == 7)
        try gate.reserve()
        gate.unreserve()
        await gate.shutdown()
    }

    /// Counts calls (`count` is guarded by its mutex).
    final class Calls: Sendable {
        private let count = Mutex(0)
        var value: Int { count.withLock { $0 } }
        func add() { count.withLock { $0 += 1 } }
    }

    @Test func whenIdleRunsOnceProcessingHasRestedForASecond() async throws {
        let calls = Calls()
        let gate = ProcessingGate(
            slots: 2, queueLimit: 4, queueTimeout: .seconds(30), metrics: ServerMetrics(), whenIdle: { calls.add() })
        let ran = ContinuousClock.now
        _ = try await gate.run { () throws(ImageServerError) in 1 }
        // Not at once: checked only when this test was not held up for the second itself (a loaded machine can).
        let checkedEarly = ContinuousClock.now - ran < .milliseconds(500)
        #expect(!checkedEarly || calls.value == 0, "not at once")
        try await Blocker.until { calls.value == 1 }
        // A run that ends while another is in progress makes no call, however long the machine takes; the last
        // run's end makes one.
        let blocker = try await Blocker(gate, holding: 1)
        _ = try await gate.run { () throws(ImageServerError) in 1 }
        try await Task.sleep(for: .milliseconds(1500))
        #expect(calls.value == 1, "not while a run is in progress")
        try await blocker.open()
        try await Blocker.until { calls.value == 2 }
        try await Task.sleep(for: .milliseconds(1500))
        #expect(calls.value == 2, "one call per rest")
        await gate.shutdown()
    }

}
