/// An access key, its secret and, for temporary credentials, a session token, for an S3-compatible store.
///
/// Its `description` never shows the secret or the token, so credentials can be logged or interpolated by mistake
/// without leaking them.
public struct S3Credentials: Sendable, Hashable, CustomStringConvertible {
    /// The access key id (`AKIA…`, `ASIA…` for temporary credentials).
    public let accessKey: String
    /// The secret access key.
    public let secretKey: String
    /// The session token of temporary credentials (STS), sent as `X-Amz-Security-Token` and signed; `nil` for
    /// long-term keys.
    public let sessionToken: String?

    /// Credentials from an access key, its secret and, for temporary credentials, their session token.
    public init(accessKey: String, secretKey: String, sessionToken: String? = nil) {
        self.accessKey = accessKey
        self.secretKey = secretKey
        self.sessionToken = sessionToken.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Credentials from `WEBIMAGE_S3_ACCESS_KEY`, `WEBIMAGE_S3_SECRET_KEY` and (optional) `WEBIMAGE_S3_SESSION_TOKEN`
    /// in `environment`, or `nil` when the key or its secret is missing or empty. ``S3Environment`` resolves them as
    /// the AWS tools do, with the shared files.
    public static func fromEnvironment(_ environment: [String: String]) -> S3Credentials? {
        guard let access = environment["WEBIMAGE_S3_ACCESS_KEY"], !access.isEmpty,
            let secret = environment["WEBIMAGE_S3_SECRET_KEY"], !secret.isEmpty
        else { return nil }
        return S3Credentials(
            accessKey: access, secretKey: secret, sessionToken: environment["WEBIMAGE_S3_SESSION_TOKEN"])
    }

    public var description: String {
        "S3Credentials(accessKey: \(accessKey), secretKey: <redacted>"
            + (sessionToken == nil ? ")" : ", sessionToken: <redacted>)")
    }
}

/// Where a client's credentials came from, named in its errors and in the server's log: never the secret or the
/// token, at most the access key id next to it.
public enum S3CredentialSource: Sendable, Hashable, CustomStringConvertible {
    /// Given in code (``S3Client/Configuration/init(endpoint:region:credentials:credentialSource:addressing:timeout:maxObjectSize:)``).
    case configuration
    /// Environment variables; the name is the access key's (`AWS_ACCESS_KEY_ID`, `WEBIMAGE_S3_ACCESS_KEY`).
    case environment(String)
    /// A profile of the shared credentials file (`~/.aws/credentials`, `AWS_SHARED_CREDENTIALS_FILE`).
    case credentialsFile(profile: String, path: String)
    /// A profile of the shared config file (`~/.aws/config`, `AWS_CONFIG_FILE`).
    case configFile(profile: String, path: String)

    public var description: String {
        switch self {
        case .configuration: "configuration"
        case .environment(let name): "environment \(name)"
        case .credentialsFile(let profile, let path), .configFile(let profile, let path):
            "profile '\(profile)' in \(path)"
        }
    }
}
