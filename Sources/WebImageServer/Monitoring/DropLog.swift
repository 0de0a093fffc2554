import Logging
import WebImage

/// Logs that a monitoring endpoint lost data, at most once a minute per endpoint, so a dead agent does not fill the
/// log.
struct DropLog: Sendable {
    let logger: Logger
    private let last = Locked<[String: ContinuousClock.Instant]>([:])

    init(logger: Logger) { self.logger = logger }

    /// Logs `error` of `endpoint` unless it was logged less than a minute ago.
    func dropped(_ endpoint: String, _ error: any Error) {
        let now = ContinuousClock.now
        let due = last.withLock { last in
            if let previous = last[endpoint], now - previous < .seconds(60) { return false }
            last[endpoint] = now
            return true
        }
        guard due else { return }
        logger.warning(
            "monitoring data dropped (logged at most once a minute)",
            metadata: ["endpoint": "\(endpoint)", "error": "\(error)"])
    }
}
