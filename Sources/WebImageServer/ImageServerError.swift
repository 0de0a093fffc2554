/// Why the server refuses or fails a request: an HTTP status and a short message safe to show to any client.
///
/// Messages name the option, the argument or the rule that failed; they never carry the origin's body or headers,
/// local paths, secrets or stack traces.
public struct ImageServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The HTTP status the server answers with.
    public let status: Int
    /// A one-line explanation for the client.
    public let message: String
    /// Seconds after which the client may try again (`Retry-After`), for a busy server.
    public let retryAfter: Int?
    /// What went wrong at the origin, for the metrics; `nil` when the origin was not at fault.
    var originFailure: OriginFailure?
    /// Whether the source's bytes are not an image of a format the server reads: imgproxy's failed type detection,
    /// which it counts as a download error. A source of a known format that fails to decode is not.
    var isUnreadableSource = false
    /// Whether a source the server reads failed to decode or sanitise: imgproxy reports such processing errors
    /// (``isReported(downloadingErrors:)``) although the client is answered 422.
    var isProcessingFailure = false

    /// Whether the source could not be downloaded or is not an image: the failures a fallback image answers for, as
    /// imgproxy's `handleDownloadError`.
    var isSourceFailure: Bool { (originFailure.map { $0 != .cancelled } ?? false) || isUnreadableSource }

    /// Creates an error; `retryAfter` becomes a `Retry-After` header.
    public init(status: Int, _ message: String, retryAfter: Int? = nil) {
        self.status = status
        self.message = message
        self.retryAfter = retryAfter
    }

    public var description: String { "\(status): \(message)" }

    /// A malformed path, option or argument: 404, as imgproxy answers.
    static func invalid(_ message: String) -> ImageServerError { ImageServerError(status: 404, message) }

    /// An argument `value` of `option` that is not what it must be (`expected`).
    static func argument(_ option: String, _ value: String, _ expected: String) -> ImageServerError {
        invalid("invalid \(option) argument \"\(value.prefix(64))\": expected \(expected)")
    }
}
