import Foundation

/// The names of the environment variables of one set of credentials.
public struct S3CredentialVariables: Sendable, Hashable {
    /// The access key's variable (`AWS_ACCESS_KEY_ID`).
    public var accessKey: String
    /// The secret's variable (`AWS_SECRET_ACCESS_KEY`).
    public var secretKey: String
    /// The session token's variable (`AWS_SESSION_TOKEN`), `nil` when there is none.
    public var sessionToken: String?

    public init(accessKey: String, secretKey: String, sessionToken: String? = nil) {
        self.accessKey = accessKey
        self.secretKey = secretKey
        self.sessionToken = sessionToken
    }

    /// The AWS tools' `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`.
    public static let aws = S3CredentialVariables(
        accessKey: "AWS_ACCESS_KEY_ID", secretKey: "AWS_SECRET_ACCESS_KEY", sessionToken: "AWS_SESSION_TOKEN")

    /// `WEBIMAGE_<NAME>_ACCESS_KEY`, `WEBIMAGE_<NAME>_SECRET_KEY`, `WEBIMAGE_<NAME>_SESSION_TOKEN` (`NAME`: `S3`,
    /// `S3_SOURCE`).
    public static func webimage(_ name: String) -> S3CredentialVariables {
        S3CredentialVariables(
            accessKey: "WEBIMAGE_\(name)_ACCESS_KEY", secretKey: "WEBIMAGE_\(name)_SECRET_KEY",
            sessionToken: "WEBIMAGE_\(name)_SESSION_TOKEN")
    }
}

/// An S3 client's endpoint, region, credentials and addressing, resolved from explicit values (flags), then an
/// environment and the shared AWS files, in the AWS tools' order.
///
/// - Credentials: each of the caller's own variables in turn (`WEBIMAGE_S3_ACCESS_KEY`…), then `AWS_ACCESS_KEY_ID`
///   / `AWS_SECRET_ACCESS_KEY` / `AWS_SESSION_TOKEN`, then the profile (`AWS_PROFILE`, default `default`) in the
///   shared credentials file (`AWS_SHARED_CREDENTIALS_FILE`, default `~/.aws/credentials`), then in the config file
///   (`AWS_CONFIG_FILE`, default `~/.aws/config`), each with its `aws_session_token`. A profile that gets its
///   credentials another way the AWS tools know (`role_arn`, `web_identity_token_file`, `sso_session`,
///   `sso_start_url`, `credential_process`), or `AWS_WEB_IDENTITY_TOKEN_FILE`, where the AWS tools would use it,
///   is an error rather than a silent fall-through: instance metadata, containers, SSO and STS would reach another
///   host, and are not consulted.
/// - Region: the explicit one, `AWS_REGION`, `AWS_DEFAULT_REGION`, the profile's `region`, else `us-east-1`.
/// - Endpoint: the explicit one, `AWS_ENDPOINT_URL_S3`, `AWS_ENDPOINT_URL`, the `s3` `endpoint_url` of the
///   `[services NAME]` section the profile names, the profile's `endpoint_url` (all but the explicit one skipped with
///   `AWS_IGNORE_CONFIGURED_ENDPOINT_URLS` or the profile's `ignore_configured_endpoint_urls`), else AWS's endpoint
///   of the region.
/// - Addressing: the explicit one, the profile's `s3` block's `addressing_style`, else ``S3Addressing/auto``.
///
/// The files are read only when a value is left to them, once per ``resolve(_:)``.
public struct S3Environment: Sendable {
    /// The variables, as a process's environment (empty values count as unset).
    public let variables: [String: String]

    /// An environment of `variables`; the shared files are found through `HOME` there.
    public init(_ variables: [String: String]) { self.variables = variables }

    /// This process's environment.
    public static var process: S3Environment { S3Environment(ProcessInfo.processInfo.environment) }

    /// The value of `name`, `nil` when it is unset or empty.
    public func value(_ name: String) -> String? { variables[name].flatMap { $0.isEmpty ? nil : $0 } }

    /// The profile's name: `AWS_PROFILE`, else `default`.
    public var profileName: String { value("AWS_PROFILE") ?? "default" }

    /// `AWS_SHARED_CREDENTIALS_FILE` (`~` expanded), else `$HOME/.aws/credentials`; `nil` without either.
    public var credentialsPath: String? { path(value("AWS_SHARED_CREDENTIALS_FILE"), default: ".aws/credentials") }

    /// `AWS_CONFIG_FILE` (`~` expanded), else `$HOME/.aws/config`; `nil` without either.
    public var configPath: String? { path(value("AWS_CONFIG_FILE"), default: ".aws/config") }

    private func path(_ given: String?, default name: String) -> String? {
        let home = value("HOME").map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        guard let given else { return home.map { "\($0)/\(name)" } }
        if given == "~" { return home ?? given }
        if given.hasPrefix("~/"), let home { return home + given.dropFirst() }
        return given
    }

    /// The profile of the shared files (read now).
    public func profile() throws(S3ConfigurationError) -> AWSProfile {
        try AWSProfile(
            name: profileName, isExplicit: value("AWS_PROFILE") != nil, credentialsPath: credentialsPath,
            configPath: configPath)
    }

    /// What the caller already decided (flags, its own variables); the rest is resolved.
    public struct Request: Sendable {
        /// The endpoint, when given (it wins over every variable and file).
        public var endpoint: URL?
        /// The region, when given.
        public var region: String?
        /// The addressing, when given.
        public var addressing: S3Addressing?
        /// Credential variables read before AWS's, in order (`WEBIMAGE_S3_ACCESS_KEY`…).
        public var credentialVariables: [S3CredentialVariables]

        public init(
            endpoint: URL? = nil, region: String? = nil, addressing: S3Addressing? = nil,
            credentialVariables: [S3CredentialVariables] = []
        ) {
            self.endpoint = endpoint
            self.region = region
            self.addressing = addressing
            self.credentialVariables = credentialVariables
        }
    }

    /// The resolved settings, and where the endpoint and region came from (for the server's start-up log).
    public struct Resolution: Sendable, Hashable {
        public var endpoint: URL
        /// `configuration`, `environment AWS_ENDPOINT_URL_S3`, `profile 'x' in PATH`, `AWS's endpoint of the region`…
        public var endpointSource: String
        public var region: String
        public var regionSource: String
        public var credentials: S3Credentials
        public var credentialSource: S3CredentialSource
        public var addressing: S3Addressing

        /// A client configuration of these settings.
        public func configuration(
            timeout: Duration = .milliseconds(300), maxObjectSize: Int = 64 << 20
        ) -> S3Client.Configuration {
            S3Client.Configuration(
                endpoint: endpoint, region: region, credentials: credentials, credentialSource: credentialSource,
                addressing: addressing, timeout: timeout, maxObjectSize: maxObjectSize)
        }
    }

    /// Resolves what `request` leaves out.
    /// - Throws: ``S3ConfigurationError`` naming the source that failed.
    public func resolve(_ request: Request = Request()) throws(S3ConfigurationError) -> Resolution {
        var loaded: AWSProfile?
        func profile() throws(S3ConfigurationError) -> AWSProfile {
            if let loaded { return loaded }
            let read = try self.profile()
            loaded = read
            return read
        }
        let (credentials, credentialSource) = try resolveCredentials(request.credentialVariables, profile: profile)
        let (region, regionSource) = try resolveRegion(request.region, profile: profile)
        let endpoint = try resolveEndpoint(request.endpoint, service: ("S3", "s3"), profile: profile)
        let addressing: S3Addressing
        if let explicit = request.addressing {
            addressing = explicit
        } else {
            addressing = try resolveAddressing(profile: profile)
        }
        return Resolution(
            endpoint: endpoint?.url ?? Self.awsEndpoint(region),
            endpointSource: endpoint?.source ?? "AWS's endpoint of the region", region: region,
            regionSource: regionSource, credentials: credentials, credentialSource: credentialSource,
            addressing: addressing)
    }

    /// AWS's S3 endpoint of `region`: `https://s3.REGION.amazonaws.com` (`.com.cn` in China).
    public static func awsEndpoint(_ region: String) -> URL {
        let suffix = region.hasPrefix("cn-") ? "amazonaws.com.cn" : "amazonaws.com"
        return URL(string: "https://s3.\(region).\(suffix)") ?? URL(string: "https://s3.amazonaws.com")!
    }

    func resolveCredentials(
        _ own: [S3CredentialVariables], profile: () throws(S3ConfigurationError) -> AWSProfile
    ) throws(S3ConfigurationError) -> (S3Credentials, S3CredentialSource) {
        var tried: [String] = []
        for variables in own + [.aws] {
            tried.append("environment \(variables.accessKey)")
            guard let access = value(variables.accessKey) else { continue }
            guard let secret = value(variables.secretKey) else {
                throw .incompleteCredentials(
                    source: "environment \(variables.accessKey)", missing: variables.secretKey)
            }
            let token = variables.sessionToken.flatMap(value)
            return (
                S3Credentials(accessKey: access, secretKey: secret, sessionToken: token),
                .environment(variables.accessKey)
            )
        }
        if value("AWS_WEB_IDENTITY_TOKEN_FILE") != nil, value("AWS_ROLE_ARN") != nil {
            throw .unsupported(
                source: "environment AWS_WEB_IDENTITY_TOKEN_FILE", setting: "a web identity (STS AssumeRole)")
        }
        let profile = try profile()
        for (key, means) in [
            ("role_arn", "role_arn (STS AssumeRole)"), ("web_identity_token_file", "web_identity_token_file (STS)"),
            ("sso_session", "sso_session (SSO)"), ("sso_start_url", "sso_start_url (SSO)"),
        ] where profile.text(key) != nil {
            throw .unsupported(source: profile.source(of: key), setting: means)
        }
        if let path = profile.credentialsPath {
            if let found = try Self.keys(profile.credentialsSection, source: "profile '\(profile.name)' in \(path)") {
                return (found, .credentialsFile(profile: profile.name, path: path))
            }
            tried.append("profile '\(profile.name)' in \(path)")
        }
        if profile.text("credential_process") != nil {
            throw .unsupported(source: profile.source(of: "credential_process"), setting: "credential_process")
        }
        if let path = profile.configPath {
            if let found = try Self.keys(profile.configSection, source: "profile '\(profile.name)' in \(path)") {
                return (found, .configFile(profile: profile.name, path: path))
            }
            tried.append("profile '\(profile.name)' in \(path)")
        }
        throw .noCredentials(tried: tried)
    }

    /// The keys of a profile's section: `nil` without `aws_access_key_id`, an error with it but without its secret.
    private static func keys(
        _ section: [String: AWSConfigValue]?, source: String
    ) throws(S3ConfigurationError) -> S3Credentials? {
        func text(_ key: String) -> String? { section?[key]?.text.flatMap { $0.isEmpty ? nil : $0 } }
        guard let access = text("aws_access_key_id") else { return nil }
        guard let secret = text("aws_secret_access_key") else {
            throw .incompleteCredentials(source: source, missing: "aws_secret_access_key")
        }
        return S3Credentials(accessKey: access, secretKey: secret, sessionToken: text("aws_session_token"))
    }

    func resolveRegion(
        _ explicit: String?, default fallback: String = "us-east-1",
        profile: () throws(S3ConfigurationError) -> AWSProfile
    ) throws(S3ConfigurationError) -> (String, String) {
        if let explicit, !explicit.isEmpty { return (explicit, "configuration") }
        for name in ["AWS_REGION", "AWS_DEFAULT_REGION"] {
            if let region = value(name) { return (region, "environment \(name)") }
        }
        let profile = try profile()
        if let region = profile.text("region") { return (region, profile.source(of: "region")) }
        return (fallback, "default")
    }

    /// The configured endpoint of the service whose variable ends in `service.id` (`S3`) and whose block in a
    /// `[services NAME]` section is `service.key` (`s3`); `nil` for AWS's own.
    func resolveEndpoint(
        _ explicit: URL?, service: (id: String, key: String), profile: () throws(S3ConfigurationError) -> AWSProfile
    ) throws(S3ConfigurationError) -> (url: URL, source: String)? {
        if let explicit {
            return (try Self.endpoint(explicit.absoluteString, source: "configuration"), "configuration")
        }
        if let ignore = value("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS"), Self.isTrue(ignore) { return nil }
        for name in ["AWS_ENDPOINT_URL_\(service.id)", "AWS_ENDPOINT_URL"] {
            if let text = value(name) {
                return (try Self.endpoint(text, source: "environment \(name)"), "environment \(name)")
            }
        }
        let profile = try profile()
        if let ignore = profile.text("ignore_configured_endpoint_urls"), Self.isTrue(ignore) { return nil }
        if let services = try profile.servicesSection(), let text = services[service.key]?.nested?["endpoint_url"],
            !text.isEmpty
        {
            let source = "[services \(profile.text("services") ?? "")] in \(profile.configPath ?? "the config file")"
            return (try Self.endpoint(text, source: source), source)
        }
        if let text = profile.text("endpoint_url") {
            let source = profile.source(of: "endpoint_url")
            return (try Self.endpoint(text, source: source), source)
        }
        return nil
    }

    private func resolveAddressing(
        profile: () throws(S3ConfigurationError) -> AWSProfile
    ) throws(S3ConfigurationError) -> S3Addressing {
        let profile = try profile()
        guard let style = profile.value("s3")?.nested?["addressing_style"], !style.isEmpty else { return .auto }
        guard let addressing = S3Addressing(name: style) else {
            throw .invalidValue(
                source: profile.source(of: "s3"), reason: "addressing_style = \(style): must be auto, path or virtual")
        }
        return addressing
    }

    /// `text` as an endpoint: an `http` or `https` URL with a host and no query.
    static func endpoint(_ text: String, source: String) throws(S3ConfigurationError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            url.host?.isEmpty == false, url.query == nil
        else { throw .invalidValue(source: source, reason: "'\(text)' is not an http(s)://HOST[:PORT] URL") }
        return url
    }

    private static func isTrue(_ text: String) -> Bool {
        text.trimmingCharacters(in: .whitespaces).lowercased() == "true"
    }
}
