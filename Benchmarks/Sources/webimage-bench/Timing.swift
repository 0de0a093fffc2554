import Foundation

/// Runs `body` repeatedly for about `seconds` (at least `minimum` times) and returns the median and fastest
/// durations in milliseconds.
func measure(
    seconds: Double = 2, minimum: Int = 5, _ body: () throws -> Void
) rethrows -> (median: Double, best: Double) {
    try body()
    var samples: [Double] = []
    let clock = ContinuousClock()
    let deadline = clock.now + .milliseconds(Int(seconds * 1000))
    while samples.count < minimum || clock.now < deadline {
        let start = clock.now
        try body()
        let elapsed = clock.now - start
        samples.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
    }
    samples.sort()
    return (samples[samples.count / 2], samples[0])
}

/// The value of `--name VALUE` in `arguments`.
func option(_ name: String, in arguments: [String]) -> String? {
    guard let index = arguments.firstIndex(of: "--\(name)"), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}
