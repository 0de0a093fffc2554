import Logging

/// What the request log says of one image or `/info` request: method, endpoint, status, duration, cache result,
/// source host, bytes.
///
/// Never the path: a signed URL is a credential for its image, and the source URL may carry tokens in its query.
/// ``ImageServerConfiguration/requestLog`` receives these values as they are; without it they are logged through
/// ``ImageServerConfiguration/logger`` as ``metadata``.
public struct RequestLogEntry: Sendable {
    /// The request's method (`GET`).
    public let method: String
    /// Which endpoint answered: `image` or `info`.
    public let endpoint: String
    /// The response's status code.
    public let status: Int
    /// Seconds from the request's arrival to its response.
    public let seconds: Double
    /// How it was answered: `memory`, `disk`, `shared`, `miss`, `not_modified`, `forwarded` or `none`.
    public let cache: String
    /// The source's host (or `local`), empty when the request named none.
    public let sourceHost: String
    /// Response body bytes.
    public let bytes: Int

    /// The fields as log metadata, keyed as the server's log line names them (`status`, `duration_ms`, ...), the
    /// duration in milliseconds to a tenth.
    public var metadata: Logger.Metadata {
        var metadata = Logger.Metadata()
        for (key, value) in fields { metadata[key] = .string(value) }
        return metadata
    }

    /// The fields as text, in the order of their keys.
    public var fields: [(key: String, value: String)] {
        let milliseconds = seconds.isFinite ? (seconds * 1000 * 10).rounded() / 10 : 0
        return [
            ("bytes", String(bytes)), ("cache", cache), ("duration_ms", milliseconds.description),
            ("endpoint", endpoint), ("method", method), ("source_host", sourceHost), ("status", String(status)),
        ]
    }
}
