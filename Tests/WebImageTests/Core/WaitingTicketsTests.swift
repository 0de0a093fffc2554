import Testing

@testable import WebImage

/// The admission queue's heap against a plain model (a linear scan for the best waiting ticket), through thousands
/// of random inserts, cancellations, priority changes and pops, with the stale-entry sweeps they trigger.
@Suite("Core: waiting tickets heap")
struct WaitingTicketsTests {
    private let priorities: [ImageLoadPriority] = [.low, .normal, .high]

    /// The best ticket of the model: highest priority, then oldest (FIFO) or newest (LIFO).
    private func modelBest(_ waiting: [Int: ImageLoadPriority], lifo: Bool) -> Int? {
        waiting.max { a, b in
            if a.value != b.value { return a.value < b.value }
            return lifo ? a.key < b.key : a.key > b.key
        }?.key
    }

    /// Pops until a current entry comes out, as `AdmissionQueue.admit` does.
    private func popCurrent(_ heap: inout WaitingTickets, _ waiting: [Int: ImageLoadPriority]) -> Int? {
        while let entry = heap.popFirst() {
            if waiting[entry.ticket] == entry.priority { return entry.ticket }
            heap.droppedStale()
        }
        return nil
    }

    @Test(arguments: [ImageDownloadOrder.fifo, .lifo])
    func matchesALinearScanThroughRandomOperations(order: ImageDownloadOrder) {
        var random = SplitMix(seed: order.isLIFO ? 7 : 3)
        var heap = WaitingTickets(order: order)
        var waiting: [Int: ImageLoadPriority] = [:]
        var next = 0
        var pops = 0
        for _ in 0..<20_000 {
            switch random.next() % 10 {
            case 0..<4:
                let priority = priorities[Int(random.next() % 3)]
                waiting[next] = priority
                heap.insert(next, priority: priority)
                next += 1
            case 4..<6:
                guard let ticket = waiting.keys.randomElement(using: &random) else { continue }
                waiting[ticket] = nil
                if heap.noteStale() { heap.sweep(keeping: waiting) }
            case 6..<8:
                guard let ticket = waiting.keys.randomElement(using: &random) else { continue }
                let priority = priorities[Int(random.next() % 3)]
                guard priority != waiting[ticket] else { continue }
                waiting[ticket] = priority
                heap.insert(ticket, priority: priority)
                if heap.noteStale() { heap.sweep(keeping: waiting) }
            default:
                let expected = modelBest(waiting, lifo: order.isLIFO)
                let popped = popCurrent(&heap, waiting)
                #expect(popped == expected)
                if let popped { waiting[popped] = nil }
                pops += 1
            }
        }
        while let expected = modelBest(waiting, lifo: order.isLIFO) {
            #expect(popCurrent(&heap, waiting) == expected)
            waiting[expected] = nil
        }
        #expect(popCurrent(&heap, waiting) == nil)
        #expect(pops > 1000)
    }

    @Test func aTicketMovedAwayAndBackStartsOnce() {
        var heap = WaitingTickets(order: .fifo)
        var waiting: [Int: ImageLoadPriority] = [0: .normal, 1: .normal]
        heap.insert(0, priority: .normal)
        heap.insert(1, priority: .normal)
        waiting[1] = .high
        heap.insert(1, priority: .high)
        _ = heap.noteStale()
        waiting[1] = .normal
        heap.insert(1, priority: .normal)
        _ = heap.noteStale()
        #expect(popCurrent(&heap, waiting) == 0)
        waiting[0] = nil
        #expect(popCurrent(&heap, waiting) == 1)
        waiting[1] = nil
        #expect(popCurrent(&heap, waiting) == nil)
    }
}

/// A small seeded generator, so a failure reproduces.
private struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
