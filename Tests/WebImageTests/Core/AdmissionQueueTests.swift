import Foundation
import Testing

@testable import WebImage

/// ``AdmissionQueue``: the one admission queue of the package (downloads, decodes, the server's processing).
@Suite("Core: admission queue")
struct AdmissionQueueTests {
    /// Waits (yielding, at most about 10 s) until `condition` holds.
    static func until(_ condition: @Sendable () -> Bool) async throws {
        for _ in 0..<1000 {
            if condition() { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("condition never held")
    }

    /// Records the order in which tickets were admitted (`order` is under its lock).
    final class Admissions: Sendable {
        private let order = Locked<[Int]>([])
        var tickets: [Int] { order.withLock { $0 } }
        func add(_ ticket: Int) { order.withLock { $0.append(ticket) } }
    }

    @Test func waitingJobsStartByPriorityThenInOrder() async throws {
        let queue = AdmissionQueue(width: 1)
        let first = try queue.enqueue().get()
        #expect(await queue.wait(first) == nil, "a free slot admits at once")
        let low = try queue.enqueue(priority: .low).get()
        let normal = try queue.enqueue(priority: .normal).get()
        let high = try queue.enqueue(priority: .high).get()
        let admissions = Admissions()
        let waiters = [low, normal, high].map { ticket in
            Task {
                let refusal = await queue.wait(ticket)
                admissions.add(ticket)
                queue.finish(ticket)
                return refusal
            }
        }
        try await Self.until { queue.waitingCount == 3 }
        queue.setPriority(.high, for: low)  // ties with `high`, and was enqueued first
        queue.finish(first)
        for waiter in waiters { #expect(await waiter.value == nil) }
        #expect(admissions.tickets == [low, high, normal])
        #expect(queue.runningCount == 0 && queue.waitingCount == 0)
    }

    @Test func aFullQueueRefusesAtOnceAndReservationsCount() throws {
        let queue = AdmissionQueue(width: 1, queueLimit: 1)
        #expect(queue.reserve())
        #expect(queue.reserve())
        #expect(!queue.reserve(), "one slot and one queue place are held")
        let running = try queue.enqueue(reserved: true).get()
        let waiting = try queue.enqueue(reserved: true).get()
        #expect(queue.enqueue() == .failure(.full))
        queue.finish(waiting)
        #expect(queue.reserve())
        queue.unreserve()
        queue.finish(running)
        #expect(queue.runningCount == 0 && queue.waitingCount == 0)
    }

    @Test func aWaiterGivesUpAfterTheQueueTimeout() async throws {
        let queue = AdmissionQueue(width: 1, queueTimeout: .milliseconds(50))
        let running = try queue.enqueue().get()
        let waiting = try queue.enqueue().get()
        #expect(await queue.wait(waiting) == .timedOut)
        #expect(queue.waitingCount == 0)
        queue.finish(waiting)
        queue.finish(running)
        #expect(queue.runningCount == 0)
    }

    @Test func aCancelledWaiterLeavesTheQueueAndTheNextOneRuns() async throws {
        let queue = AdmissionQueue(width: 1)
        let running = try queue.enqueue().get()
        let cancelled = try queue.enqueue().get()
        let next = try queue.enqueue().get()
        let waiter = Task { await queue.wait(cancelled) }
        try await Self.until { queue.waitingCount == 2 }
        waiter.cancel()
        #expect(await waiter.value == .cancelled)
        queue.finish(cancelled)
        queue.finish(running)
        #expect(await queue.wait(next) == nil)
        queue.finish(next)
    }

    @Test func shutdownRefusesWaitersAndLaterJobs() async throws {
        let queue = AdmissionQueue(width: 1)
        let running = try queue.enqueue().get()
        let waiting = try queue.enqueue().get()
        let waiter = Task { await queue.wait(waiting) }
        try await Self.until { queue.waitingCount == 1 }
        queue.shutdown()
        #expect(await waiter.value == .shutDown)
        #expect(queue.enqueue() == .failure(.shutDown))
        #expect(!queue.reserve())
        queue.finish(running)
    }

    @Test func theWorkQueueRunsJobsOffThePoolAndRefusesAsItsQueueSays() async throws {
        let queue = WorkQueue(width: 1, queueLimit: 0)
        let gate = DispatchSemaphore(value: 0)
        let blocked = Task {
            try await queue.run(refusal: { $0 }) { () throws(AdmissionQueue.Refusal) in gate.wait() }
        }
        try await Self.until { queue.running == 1 }
        await #expect(throws: AdmissionQueue.Refusal.full) {
            try await queue.run(refusal: { $0 }) { () throws(AdmissionQueue.Refusal) in 1 }
        }
        gate.signal()
        try await blocked.value
        #expect(try await queue.run(refusal: { $0 }) { () throws(AdmissionQueue.Refusal) in 7 } == 7)
    }
}
