import Hummingbird
import Logging

/// One log line per image or `/info` request (a ``RequestLogEntry``): to the configuration's request log when it has
/// one, else through its logger at `info`.
struct RequestLog: Sendable {
    let logger: Logger
    let sink: (@Sendable (RequestLogEntry) -> Void)?

    func record(_ outcome: RequestOutcome, method: HTTPRequest.Method, seconds: Double) {
        let entry = RequestLogEntry(
            method: method.rawValue, endpoint: outcome.endpoint.rawValue, status: Int(outcome.response.status.code),
            seconds: seconds, cache: outcome.cache.rawValue, sourceHost: outcome.sourceHost, bytes: outcome.bytes)
        if let sink {
            sink(entry)
        } else {
            logger.info("request", metadata: entry.metadata)
        }
    }
}
