import Foundation

/// An S3 store's answer other than 2xx, the `underlying` error of the `.badStatus` `WebImageError`s of ``S3Client``.
/// Its description names the store's error code (`SignatureDoesNotMatch`, `InvalidAccessKeyId`, `ExpiredToken`…)
/// and, for 401 and 403, where the credentials came from and their access key id; never the secret or the session
/// token.
public struct S3StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The HTTP status.
    public let status: Int
    /// The store's `<Code>` (`AccessDenied`), `nil` when the answer had none (a `HEAD` has no body).
    public let code: String?
    /// The operation (`GET`, `PUT`, `HeadBucket`…).
    public let operation: String
    /// The key (or bucket) asked for.
    public let key: String
    /// Where the client's credentials came from.
    public let credentialSource: S3CredentialSource
    /// The credentials' access key id.
    public let accessKey: String

    /// Whether the store refused the credentials (401 or 403: a wrong key or secret, an expired token, no right).
    public var isAuthorizationFailure: Bool { status == 401 || status == 403 }

    public var description: String {
        var text = "S3 \(operation) \(key) answered \(status)" + (code.map { " \($0)" } ?? "")
        if isAuthorizationFailure {
            text += " with the credentials from \(credentialSource) (access key \(accessKey))"
        }
        return text
    }

    /// The `<Code>` of an S3 error document: at most 64 letters and digits, else `nil`.
    static func code(in body: Data) -> String? {
        guard body.count <= 64 << 10, let text = String(data: body, encoding: .utf8),
            let open = text.range(of: "<Code>"),
            let close = text.range(of: "</Code>", range: open.upperBound..<text.endIndex)
        else { return nil }
        let code = text[open.upperBound..<close.lowerBound]
        guard (1...64).contains(code.count), code.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            return nil
        }
        return String(code)
    }
}
