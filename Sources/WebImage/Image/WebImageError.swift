import Foundation

/// The one error type of WebImage: a stable ``code``, a human message, the URL involved and the underlying cause.
///
/// Codes are a struct over a private enum, so new codes can be added without breaking `switch` statements in
/// callers. Compare with `==` or the `~=` pattern: `catch let error as WebImageError where error.code == .timedOut`.
public struct WebImageError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, stable across releases. ``number`` is documented and never reused.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Value: Int, Sendable {
            case invalidSource = 1, unsupportedFormat, corruptData, truncatedData, tooLarge, encodingFailed
            case invalidArgument, fileNotFound, fileUnreadable, badStatus, invalidResponse, bodyTooLarge
            case timedOut, connectionFailed, cancelled, tooManyRedirects, cacheFailure, failedURL
            case notCached, notModified, forbiddenSource, writeFailed, incompleteResponse
        }
        fileprivate let value: Value
        fileprivate init(_ value: Value) { self.value = value }

        /// The stable number of this code.
        public var number: Int { value.rawValue }
        public var description: String { "\(value)" }

        /// The source is not a URL or path that any loader accepts.
        public static let invalidSource = Code(.invalidSource)
        /// The bytes are an image format that no registered coder decodes (TIFF, HEIC, …), or not an image at all.
        public static let unsupportedFormat = Code(.unsupportedFormat)
        /// The bytes claim a known format but are damaged (bad checksum, invalid header, bad compressed data).
        public static let corruptData = Code(.corruptData)
        /// The bytes end before the image does.
        public static let truncatedData = Code(.truncatedData)
        /// The image exceeds a ``DecodingLimits`` limit (pixels, bytes or frames); refused before allocating.
        public static let tooLarge = Code(.tooLarge)
        /// An encoder failed.
        public static let encodingFailed = Code(.encodingFailed)
        /// A parameter is out of range (a zero size, a crop outside the image, NaN, …).
        public static let invalidArgument = Code(.invalidArgument)
        /// A file source does not exist.
        public static let fileNotFound = Code(.fileNotFound)
        /// A file source exists but cannot be read (a directory, no permission, an I/O error).
        public static let fileUnreadable = Code(.fileUnreadable)
        /// The server answered with a status that is not a success.
        public static let badStatus = Code(.badStatus)
        /// The response is not an image (wrong content type, an HTML page, wrong length).
        public static let invalidResponse = Code(.invalidResponse)
        /// The body is larger than the configured maximum.
        public static let bodyTooLarge = Code(.bodyTooLarge)
        /// The request did not finish in time.
        public static let timedOut = Code(.timedOut)
        /// The connection could not be made or broke (refused, reset, DNS).
        public static let connectionFailed = Code(.connectionFailed)
        /// The caller cancelled.
        public static let cancelled = Code(.cancelled)
        /// More redirects than allowed, or a redirect loop.
        public static let tooManyRedirects = Code(.tooManyRedirects)
        /// A cache could not read or write (full disk, read-only directory, bad entry).
        public static let cacheFailure = Code(.cacheFailure)
        /// The URL failed permanently before and `retryFailed` was not set.
        public static let failedURL = Code(.failedURL)
        /// `fromCacheOnly` was set and no cache had the image.
        public static let notCached = Code(.notCached)
        /// The server answered 304 Not Modified and no cached bytes were at hand.
        public static let notModified = Code(.notModified)
        /// The source is refused by policy: its address is loopback, private, link-local or otherwise not allowed,
        /// or it is outside the allowed sources. No connection to a refused address is started.
        public static let forbiddenSource = Code(.forbiddenSource)
        /// A result could not be written to its destination (missing permissions, full disk, a path that is not
        /// a directory).
        public static let writeFailed = Code(.writeFailed)
        /// The connection closed before the whole response arrived: fewer body bytes than its `Content-Length`, or a
        /// chunked body or a head cut short. Transient.
        public static let incompleteResponse = Code(.incompleteResponse)
    }

    /// What went wrong.
    public let code: Code
    /// A one-line explanation for people.
    public let message: String
    /// The URL being loaded, when there is one.
    public let url: URL?
    /// The HTTP status, for ``Code/badStatus``.
    public let httpStatus: Int?
    /// The error that caused this one, if any.
    public let underlying: (any Error)?

    /// Creates an error.
    public init(
        _ code: Code, _ message: String, url: URL? = nil, httpStatus: Int? = nil, underlying: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.url = url
        self.httpStatus = httpStatus
        self.underlying = underlying
    }

    /// Whether trying again later may succeed: timeouts, connection failures, incomplete responses, cancellation,
    /// HTTP 5xx, 408 and 429.
    ///
    /// The manager remembers URLs whose errors are not transient and does not load them again unless asked.
    public var isTransient: Bool {
        switch code {
        case .timedOut, .connectionFailed, .incompleteResponse, .cancelled, .cacheFailure, .notCached: true
        case .badStatus:
            if let status = httpStatus { status >= 500 || status == 408 || status == 429 } else { true }
        default: false
        }
    }

    /// A copy of this error that names `url`.
    public func with(url: URL?) -> WebImageError {
        WebImageError(code, message, url: url, httpStatus: httpStatus, underlying: underlying)
    }

    public var description: String {
        var text = "\(code): \(message)"
        if let url { text += " (\(url.absoluteString))" }
        return text
    }
}
