/// An access key and its secret for an S3-compatible store.
///
/// Its `description` never shows the secret, so credentials can be logged or interpolated by mistake without
/// leaking it.
public struct S3Credentials: Sendable, Hashable, CustomStringConvertible {
    /// The access key id (`AKIA…`).
    public let accessKey: String
    /// The secret access key.
    public let secretKey: String

    /// Credentials from an access key and its secret.
    public init(accessKey: String, secretKey: String) {
        self.accessKey = accessKey
        self.secretKey = secretKey
    }

    /// Credentials from `WEBIMAGE_S3_ACCESS_KEY` and `WEBIMAGE_S3_SECRET_KEY` in `environment`, or `nil` when either
    /// is missing or empty.
    public static func fromEnvironment(_ environment: [String: String]) -> S3Credentials? {
        guard let access = environment["WEBIMAGE_S3_ACCESS_KEY"], !access.isEmpty,
            let secret = environment["WEBIMAGE_S3_SECRET_KEY"], !secret.isEmpty
        else { return nil }
        return S3Credentials(accessKey: access, secretKey: secret)
    }

    public var description: String { "S3Credentials(accessKey: \(accessKey), secretKey: <redacted>)" }
}
