import Hummingbird
import Logging

/// One structured log line per image or `/info` request: method, endpoint, status, duration, cache result, source
/// host, bytes.
///
/// Never the path: a signed URL is a credential for its image, and the source URL may carry tokens in its query.
struct RequestLog: Sendable {
    let logger: Logger

    func record(_ outcome: RequestOutcome, method: HTTPRequest.Method, seconds: Double) {
        let milliseconds = seconds.isFinite ? (seconds * 1000 * 10).rounded() / 10 : 0
        logger.info(
            "request",
            metadata: [
                "method": .string(method.rawValue),
                "endpoint": .string(outcome.endpoint.rawValue),
                "status": .string(String(outcome.response.status.code)),
                "duration_ms": .string(milliseconds.description),
                "cache": .string(outcome.cache.rawValue),
                "source_host": .string(outcome.sourceHost),
                "bytes": .string(String(outcome.bytes)),
            ])
    }
}
