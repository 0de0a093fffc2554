import CoreMetrics
import WebImage

/// The series of one labelled counter, each made once for its label values and found again by a typed key on every
/// count, rather than made through the factory (which looks its text up in the registry) per request.
struct CounterSeries<Key: Hashable & Sendable>: Sendable {
    private let label: String
    private let factory: any MetricsFactory
    private let dimensions: @Sendable (Key) -> [(String, String)]
    private let counters = Locked<[Key: CoreMetrics.Counter]>([:])

    /// The counter `label`, whose series for a key has the labels `dimensions` gives it.
    init(
        _ label: String, factory: any MetricsFactory,
        dimensions: @escaping @Sendable (Key) -> [(String, String)]
    ) {
        self.label = label
        self.factory = factory
        self.dimensions = dimensions
    }

    /// Adds one to the series of `key`.
    func increment(_ key: Key) {
        counters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = CoreMetrics.Counter(label: label, dimensions: dimensions(key), factory: factory)
            counters[key] = counter
            return counter
        }
        .increment()
    }
}
