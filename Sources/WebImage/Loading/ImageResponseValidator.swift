import Foundation

/// Decides whether a downloaded response is an image worth decoding.
///
/// Runs once per caller after the body has arrived and the ``ImageDecryptor``, if any, has run.
public struct ImageResponseValidator: Sendable {
    /// Stands for the closure in stage keys: copies share it, separately made values do not.
    let identity = IdentityToken()
    private let body: @Sendable (ImageResponse) throws(WebImageError) -> Void

    /// Creates a validator; throw to refuse the response.
    public init(_ body: @escaping @Sendable (ImageResponse) throws(WebImageError) -> Void) { self.body = body }

    /// Throws if `response` is refused.
    public func validate(_ response: ImageResponse) throws(WebImageError) { try body(response) }

    /// Accepts everything.
    public static let acceptAll = ImageResponseValidator { _ in }

    /// The default: a 2xx status (or 304 Not Modified, surfaced as ``ImageResponse/isNotModified``), and either an
    /// `image/*` content type or bytes whose format ``ImageFormat/sniff(_:)-(Data)`` recognises.
    ///
    /// An HTML error page served with 200 fails with ``WebImageError/Code/invalidResponse``; other statuses fail
    /// with ``WebImageError/Code/badStatus``.
    public static let `default` = ImageResponseValidator { response throws(WebImageError) in
        try status(response)
        if response.isNotModified { return }
        if response.data.isEmpty {
            throw WebImageError(.invalidResponse, "the response body is empty", url: response.url)
        }
        if ImageFormat.sniff(response.data) != .unknown { return }
        if let type = response.contentType, type.hasPrefix("image/") { return }
        let what = response.contentType.map { "'\($0)'" } ?? "no content type"
        throw WebImageError(.invalidResponse, "not an image: \(what) and unrecognised bytes", url: response.url)
    }

    /// Only the status check of ``default``: 2xx or 304.
    public static let statusOnly = ImageResponseValidator { response throws(WebImageError) in try status(response) }

    private static func status(_ response: ImageResponse) throws(WebImageError) {
        guard let status = response.httpStatus else { return }
        guard (200..<300).contains(status) || status == 304 else {
            throw WebImageError(.badStatus, "HTTP status \(status)", url: response.url, httpStatus: status)
        }
    }
}
