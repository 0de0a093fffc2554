import Foundation
import Tracing

/// A span of the server's own tracers (``DatadogTracer``, ``NewRelicTracer``) once it has ended: what each tracer
/// turns into its vendor's record.
struct FinishedSpan: Sendable {
    /// The name the server gave it (`source fetch`, `processing`, the request's route…).
    let name: String
    /// `.server` for the request's span.
    let kind: SpanKind
    let attributes: SpanAttributes
    /// Whether the span failed (an error recorded, or an error status).
    let failed: Bool
    /// The first error recorded on it.
    let error: Failure?
    /// Nanoseconds since 1970.
    let start: UInt64
    /// Nanoseconds since 1970, never before ``start``.
    let end: UInt64

    /// An error recorded on a span, described once when it is recorded.
    struct Failure: Sendable, Equatable {
        /// The error's type, `String(reflecting:)`.
        let type: String
        /// The error's description.
        let message: String
        /// imgproxy's category and class for an ``ImageServerError`` (`download_error (DownloadError)`, as imgproxy's
        /// `FormatErrType` names what its monitors get); the type otherwise.
        let imgproxyClass: String
        /// Whether the error is the server's answer to the request (an ``ImageServerError``), not a library's error
        /// inside a stage.
        let isAnswer: Bool
        /// Whether the error is a request that went away, which imgproxy does not send to its monitors.
        let isCancellation: Bool

        init(_ error: any Error) {
            type = String(reflecting: Swift.type(of: error))
            message = String(describing: error)
            if let error = error as? ImageServerError {
                imgproxyClass = "\(error.imgproxyCategory)_error (\(error.reportedClass))"
                isCancellation = error.originFailure == .cancelled
                isAnswer = true
            } else {
                isAnswer = false
                imgproxyClass = type
                isCancellation = error is CancellationError
            }
        }
    }

    /// The source URL the span carries (`imgproxy.source_image_url`) and its origin, `scheme://host[:port]`.
    var source: (url: String, origin: String?)? {
        guard let text = text("imgproxy.source_image_url") else { return nil }
        guard let url = URL(string: text), let scheme = url.scheme, let host = url.host else { return (text, nil) }
        return (text, url.port.map { "\(scheme)://\(host):\($0)" } ?? "\(scheme)://\(host)")
    }

    /// The text of the attribute `name` (numbers written out), `nil` for none.
    func text(_ name: String) -> String? {
        switch attributes.get(name) {
        case .none: return nil
        case .string(let value): return value
        case .int64(let value): return String(value)
        case .int32(let value): return String(value)
        case .double(let value): return String(value)
        case .bool(let value): return String(value)
        case .some(let other): return "\(other)"
        }
    }
}
