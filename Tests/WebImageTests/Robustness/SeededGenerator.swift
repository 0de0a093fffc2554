import Foundation

/// A reproducible random generator (SplitMix64) for property tests.
///
/// The seed and the number of cases come from `WEBIMAGE_PROPERTY_SEED` and `WEBIMAGE_PROPERTY_CASES` when set, so a
/// failure can be replayed and a longer run asked for: `WEBIMAGE_PROPERTY_CASES=100000 swift test --filter Property`.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// The seed for this run: the environment's, else a fixed one.
    static var seed: UInt64 {
        ProcessInfo.processInfo.environment["WEBIMAGE_PROPERTY_SEED"].flatMap { UInt64($0) } ?? 0x5EED_1234
    }

    /// How many cases each property checks: the environment's, else `defaultCount`.
    static func cases(default defaultCount: Int) -> Int {
        ProcessInfo.processInfo.environment["WEBIMAGE_PROPERTY_CASES"].flatMap { Int($0) } ?? defaultCount
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A side length from 1 to `limit`, most often small.
    mutating func side(upTo limit: Int) -> Int {
        switch Int.random(in: 0..<4, using: &self) {
        case 0: Int.random(in: 1...4, using: &self)
        case 1: Int.random(in: 1...64, using: &self)
        default: Int.random(in: 1...limit, using: &self)
        }
    }

    /// A parameter that is sometimes ordinary and sometimes hostile: 0, negative, NaN, infinite, huge or tiny.
    mutating func hostileDouble(ordinary: ClosedRange<Double>) -> Double {
        let extremes: [Double] = [
            0, -0.0, -1, -1e30, 1e30, .nan, .infinity, -.infinity, .greatestFiniteMagnitude, .leastNonzeroMagnitude,
            1e-300, Double(Int.max),
        ]
        return Int.random(in: 0..<3, using: &self) == 0
            ? extremes.randomElement(using: &self)! : Double.random(in: ordinary, using: &self)
    }

    /// A size side that is sometimes hostile: 0, negative, `Int.max`, or past any limit.
    mutating func hostileInt(ordinary: ClosedRange<Int>) -> Int {
        let extremes = [0, -1, -100_000, .max, .min, 1 << 31, 100_000, 30_000]
        return Int.random(in: 0..<4, using: &self) == 0
            ? extremes.randomElement(using: &self)! : Int.random(in: ordinary, using: &self)
    }
}
