import CoreMetrics
import WebImage

/// One metric series of ``OTLPMetricsFactory`` (a label and its dimensions), whatever swift-metrics made it as:
/// a counter or floating-point counter (a monotonic `Sum`), a meter or a non-aggregating recorder (a `Gauge` of the
/// last value), an aggregating recorder or a timer (a `Histogram` over explicit bounds; a timer's values in seconds).
/// Recorded under a lock; read, and with delta temporality reset, by ``dataPoint(start:now:delta:)``.
final class OTLPInstrument: CounterHandler, FloatingPointCounterHandler, MeterHandler, RecorderHandler, TimerHandler {
    /// What the series is exported as.
    enum Kind: Hashable {
        case sum
        case gauge
        case histogram(bounds: [Double])
    }

    let name: String
    let unit: String
    let kind: Kind
    private let attributes: [OTLPMessage]
    private let state: Locked<State>

    /// The values recorded.
    private struct State {
        var total: Double = 0
        var integerTotal: Int64 = 0
        var integral = true
        var last: Double?
        var count: UInt64 = 0
        var buckets: [UInt64]
        var minimum = Double.infinity
        var maximum = -Double.infinity
    }

    init(name: String, dimensions: [(String, String)], kind: Kind, unit: String = "") {
        self.name = name
        self.unit = unit
        self.kind = kind
        attributes = dimensions.sorted { $0.0 < $1.0 }.map { OTLPMessage.keyValue($0.0, .string($0.1)) }
        if case .histogram(let bounds) = kind {
            state = Locked(State(buckets: Array(repeating: 0, count: bounds.count + 1)))
        } else {
            state = Locked(State(buckets: []))
        }
    }

    func increment(by amount: Int64) {
        state.withLock { $0.integerTotal &+= amount }
        add(Double(amount), integral: true)
    }
    func increment(by amount: Double) { add(amount, integral: false) }
    func decrement(by amount: Double) { add(-amount, integral: false) }
    func set(_ value: Int64) { record(Double(value)) }
    func set(_ value: Double) { record(value) }
    func record(_ value: Int64) { record(Double(value)) }
    func recordNanoseconds(_ duration: Int64) { record(Double(duration) / 1_000_000_000) }

    func record(_ value: Double) {
        guard value.isFinite else { return }
        state.withLock { state in
            state.last = value
            guard case .histogram(let bounds) = kind else { return }
            state.count += 1
            state.total += value
            state.minimum = min(state.minimum, value)
            state.maximum = max(state.maximum, value)
            state.buckets[bounds.firstIndex { value <= $0 } ?? bounds.count] += 1
        }
    }

    func reset() {
        state.withLock {
            $0.total = 0
            $0.integerTotal = 0
        }
    }

    /// Adds `amount` to a counter, or to a meter's value.
    private func add(_ amount: Double, integral: Bool) {
        guard amount.isFinite else { return }
        state.withLock { state in
            state.total += amount
            state.integral = state.integral && integral
            state.last = (state.last ?? 0) + amount
        }
    }

    /// The series' data point at `now` since `start`; `nil` for a gauge never set, or, with `delta`, a histogram
    /// with nothing recorded since the last one. With `delta`, a sum's total and a histogram restart from zero.
    func dataPoint(start: UInt64, now: UInt64, delta: Bool) -> OTLPMessage? {
        let taken = state.withLock { state -> State in
            let taken = state
            if delta, kind != .gauge {
                state.total = 0
                state.integerTotal = 0
                state.count = 0
                state.buckets = state.buckets.map { _ in 0 }
                state.minimum = .infinity
                state.maximum = -.infinity
            }
            return taken
        }
        let point = OTLPMessage().with(2, "startTimeUnixNano", .fixed64(start)).with(3, "timeUnixNano", .fixed64(now))
        switch kind {
        case .sum:
            let value: OTLPMessage.Value =
                taken.integral ? .fixed64(UInt64(bitPattern: taken.integerTotal)) : .double(taken.total)
            return point.with(taken.integral ? 6 : 4, taken.integral ? "asInt" : "asDouble", value)
                .with(7, "attributes", repeated: attributes)
        case .gauge:
            guard let last = taken.last else { return nil }
            return point.with(4, "asDouble", .double(last)).with(7, "attributes", repeated: attributes)
        case .histogram(let bounds):
            if delta, taken.count == 0 { return nil }
            var histogram = point.with(4, "count", .fixed64(taken.count)).with(5, "sum", .double(taken.total))
                .with(6, "bucketCounts", repeatedValues: taken.buckets.map { .fixed64($0) })
                .with(7, "explicitBounds", repeatedValues: bounds.map { .double($0) })
                .with(9, "attributes", repeated: attributes)
            if taken.count > 0 {
                histogram = histogram.with(11, "min", .double(taken.minimum)).with(12, "max", .double(taken.maximum))
            }
            return histogram
        }
    }
}
