/// The tickets of an ``AdmissionQueue`` waiting for a slot, best first: higher priority, then the oldest (FIFO) or
/// newest (LIFO) ticket.
///
/// A binary heap with lazy deletion. A ticket that leaves or changes priority keeps its old entry, which the owner
/// recognises as stale when it comes out of ``popFirst()`` and drops. Insert and pop are O(log n); when stale
/// entries outnumber live ones the owner calls ``sweep(keeping:)``, so memory stays proportional to the waiting
/// tickets however many are cancelled.
struct WaitingTickets {
    struct Entry {
        let ticket: Int
        let priority: ImageLoadPriority
    }

    private var heap: [Entry] = []
    private var stale = 0
    private let isLIFO: Bool

    init(order: ImageDownloadOrder) { isLIFO = order.isLIFO }

    /// Adds `ticket` at `priority`.
    mutating func insert(_ ticket: Int, priority: ImageLoadPriority) {
        heap.append(Entry(ticket: ticket, priority: priority))
        siftUp(from: heap.count - 1)
    }

    /// Removes and returns the best entry, stale or not.
    mutating func popFirst() -> Entry? {
        guard let top = heap.first else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            siftDown(from: 0)
        }
        return top
    }

    /// Records that one entry went stale (its ticket left or was inserted again at another priority); returns
    /// whether stale entries now outnumber live ones, so a ``sweep(keeping:)`` is due.
    mutating func noteStale() -> Bool {
        stale += 1
        return stale > 64 && stale > heap.count / 2
    }

    /// Records that a stale entry came out of ``popFirst()``.
    mutating func droppedStale() { stale = max(0, stale - 1) }

    /// Keeps one entry per ticket in `waiting`, at its current priority.
    mutating func sweep(keeping waiting: [Int: ImageLoadPriority]) {
        var kept = Set<Int>()
        heap = heap.filter { waiting[$0.ticket] == $0.priority && kept.insert($0.ticket).inserted }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(from: index) }
        stale = 0
    }

    /// Whether `a` starts before `b`.
    private func precedes(_ a: Entry, _ b: Entry) -> Bool {
        if a.priority != b.priority { return a.priority > b.priority }
        return isLIFO ? a.ticket > b.ticket : a.ticket < b.ticket
    }

    private mutating func siftUp(from index: Int) {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(heap[child], heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(from index: Int) {
        var parent = index
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var best = parent
            if left < heap.count, precedes(heap[left], heap[best]) { best = left }
            if right < heap.count, precedes(heap[right], heap[best]) { best = right }
            guard best != parent else { return }
            heap.swapAt(parent, best)
            parent = best
        }
    }
}
