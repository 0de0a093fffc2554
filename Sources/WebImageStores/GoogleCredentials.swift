import Foundation

/// Where a Google client's OAuth 2.0 tokens come from, as Go's `google.FindDefaultCredentials` finds them: a
/// service-account key (signed assertions), a user's refresh token (`gcloud auth application-default login`'s
/// `authorized_user` file), workload identity federation (an `external_account` file: another provider's token
/// exchanged at Google's STS; a workforce pool user's `external_account_authorized_user` refresh token), or the
/// metadata server of the instance the server runs on (GCE, GKE, Cloud Run).
public struct GoogleCredentials: Sendable, CustomStringConvertible {
    enum Source: Sendable {
        case serviceAccount(GoogleServiceAccount)
        case authorizedUser(GoogleAuthorizedUser)
        case externalAccount(GoogleExternalAccount)
        case externalAuthorizedUser(GoogleExternalAuthorizedUser)
        case metadataServer(host: String)
    }

    /// The metadata server's address when `GCE_METADATA_HOST` names none, as Go's metadata client's.
    public static let defaultMetadataHost = "169.254.169.254"
    /// Where `gcloud auth application-default login` writes its credentials, under the home directory.
    public static let wellKnownFile = ".config/gcloud/application_default_credentials.json"

    let source: Source

    /// Tokens of a service-account key.
    public static func serviceAccount(_ account: GoogleServiceAccount) -> GoogleCredentials {
        GoogleCredentials(source: .serviceAccount(account))
    }

    /// Tokens of the metadata server at `host` (`HOST` or `HOST:PORT`), asked with `Metadata-Flavor: Google`.
    public static func metadataServer(host: String = GoogleCredentials.defaultMetadataHost) -> GoogleCredentials {
        GoogleCredentials(source: .metadataServer(host: host))
    }

    /// The credentials of a JSON credentials file: a service-account key, a user's refresh token, or workload
    /// identity federation's `external_account` configuration (whose sources read `environment`: AWS's variables,
    /// `GOOGLE_EXTERNAL_ACCOUNT_ALLOW_EXECUTABLES`) or `external_account_authorized_user` token.
    ///
    /// - Throws: ``CloudStoreError/Code/invalidKey`` for another type or an unusable key (never quoting it).
    public init(
        json: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(CloudStoreError) {
        let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        switch object?["type"] as? String {
        case "authorized_user": source = .authorizedUser(try GoogleAuthorizedUser(object ?? [:]))
        case "external_account":
            source = .externalAccount(try GoogleExternalAccount(object ?? [:], environment: environment))
        case "external_account_authorized_user":
            source = .externalAuthorizedUser(try GoogleExternalAuthorizedUser(object ?? [:]))
        default: source = .serviceAccount(try GoogleServiceAccount(json: json))
        }
    }

    private init(source: Source) { self.source = source }

    /// Google's application default credentials, in Go's order: the file `GOOGLE_APPLICATION_CREDENTIALS` names,
    /// else gcloud's ``wellKnownFile`` under `home`, else the metadata server (`GCE_METADATA_HOST`, else
    /// ``defaultMetadataHost``). Returns them with where they were found.
    ///
    /// - Throws: ``CloudStoreError/Code/invalidKey`` for a named file that cannot be read or holds no usable
    ///   credentials, ``CloudStoreError/Code/invalidSetting`` for a `GCE_METADATA_HOST` that is not a host.
    public static func applicationDefault(
        environment: [String: String], home: String?
    ) throws(CloudStoreError) -> (credentials: GoogleCredentials, origin: String) {
        if let path = environment["GOOGLE_APPLICATION_CREDENTIALS"], !path.isEmpty {
            return (
                try file(path, variable: "GOOGLE_APPLICATION_CREDENTIALS", environment: environment),
                "GOOGLE_APPLICATION_CREDENTIALS"
            )
        }
        if let home, !home.isEmpty {
            let path = URL(fileURLWithPath: home).appendingPathComponent(wellKnownFile).path
            if FileManager.default.fileExists(atPath: path) {
                return (try file(path, variable: "gcloud", environment: environment), path)
            }
        }
        var host = environment["GCE_METADATA_HOST"] ?? ""
        if host.isEmpty { host = defaultMetadataHost }
        guard host.unicodeScalars.allSatisfy({ $0.isASCII && !"/?#@ \t\r\n".unicodeScalars.contains($0) }) else {
            throw CloudStoreError(.invalidSetting, "GCE_METADATA_HOST must be a host, optionally with a port")
        }
        return (.metadataServer(host: host), "the metadata server \(host)")
    }

    /// The credentials of the file at `path`, named `variable` in errors.
    private static func file(
        _ path: String, variable: String, environment: [String: String]
    ) throws(CloudStoreError) -> GoogleCredentials {
        guard let data = FileManager.default.contents(atPath: path), data.count <= 1 << 20 else {
            throw CloudStoreError(.invalidKey, "\(variable): cannot read \(path)")
        }
        do {
            return try GoogleCredentials(json: String(decoding: data, as: UTF8.self), environment: environment)
        } catch {
            throw CloudStoreError(.invalidKey, "\(variable): \(path): \(error.message)")
        }
    }

    /// Whether the tokens come from the metadata server, which a server asks once at start, as Go's clients find
    /// out at start whether there is one.
    public var isMetadataServer: Bool {
        if case .metadataServer = source { return true }
        return false
    }

    /// What the credentials are; never a key or a token.
    public var description: String {
        switch source {
        case .serviceAccount(let account): "\(account)"
        case .authorizedUser(let user): "\(user)"
        case .externalAccount(let account): "\(account)"
        case .externalAuthorizedUser(let user): "\(user)"
        case .metadataServer(let host): "metadata server \(host)"
        }
    }
}
