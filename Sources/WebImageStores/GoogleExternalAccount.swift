import Foundation

/// Workload identity federation's credentials, the `external_account` file of `gcloud iam
/// workload-identity-pools create-cred-config`: a token of another identity provider (the subject token: a file, an
/// URL, an executable's output, or a signed AWS `GetCallerIdentity` request) exchanged at Google's Security Token
/// Service (RFC 8693) for a Google access token, optionally exchanged again for a service account's
/// (`service_account_impersonation_url`), as Go's `golang.org/x/oauth2/google/externalaccount` does.
///
/// Stricter than Google's library, as the rest of the credential code: `token_url` and
/// `service_account_impersonation_url` must be `https` on Google's hosts (the patterns Google's libraries checked
/// until 2023, in the file's `universe_domain`) or name a loopback address, so that a credential file cannot send
/// a subject token elsewhere; an `aws` source's metadata URLs must be AWS's metadata addresses or loopback.
struct GoogleExternalAccount: Sendable, CustomStringConvertible {
    /// Where the subject token comes from.
    enum SubjectSource: Sendable {
        case file(path: String, format: Format)
        case url(URL, headers: [String: String], format: Format)
        case executable(command: [String], timeout: Duration, outputFile: String?)
        case aws(GoogleAWSSource)
    }

    /// How a file's or an URL's subject token is written: the whole text, or a field of a JSON object.
    enum Format: Sendable {
        case text
        case json(field: String)
    }

    /// The workload identity pool provider (`//iam.googleapis.com/projects/…/providers/…`).
    let audience: String
    let subjectTokenType: String
    let tokenURL: URL
    let impersonationURL: URL?
    /// The impersonated token's lifetime, 600 to 43,200 seconds (an hour by default).
    let impersonationLifetime: Int
    /// The client of the token exchange (HTTP Basic authentication), when the file names one.
    let client: (id: String, secret: String)?
    let workforcePoolUserProject: String?
    let source: SubjectSource
    /// The server's environment: AWS's variables, `GOOGLE_EXTERNAL_ACCOUNT_ALLOW_EXECUTABLES` and what an
    /// executable is run with.
    let environment: [String: String]

    /// The credentials of an `external_account` JSON object.
    ///
    /// - Throws: ``CloudStoreError/Code/invalidKey`` for a missing field, a URL that is not allowed, a source that is
    ///   not one of `file`, `url`, `executable`, `aws`.
    init(_ object: [String: Any], environment: [String: String]) throws(CloudStoreError) {
        func text(_ name: String) -> String? { (object[name] as? String).flatMap { $0.isEmpty ? nil : $0 } }
        guard let audience = text("audience"), let subjectTokenType = text("subject_token_type"),
            let token = text("token_url")
        else {
            throw Self.invalid("needs audience, subject_token_type and token_url")
        }
        let universe = text("universe_domain") ?? "googleapis.com"
        tokenURL = try Self.googleURL(token, service: "sts", universe: universe, field: "token_url")
        if let url = text("service_account_impersonation_url") {
            impersonationURL = try Self.googleURL(
                url, service: "iamcredentials", universe: universe, field: "service_account_impersonation_url")
        } else {
            impersonationURL = nil
        }
        let impersonation = object["service_account_impersonation"] as? [String: Any]
        let lifetime = (impersonation?["token_lifetime_seconds"] as? NSNumber)?.intValue ?? 3600
        guard (600...43_200).contains(lifetime) else {
            throw Self.invalid("service_account_impersonation.token_lifetime_seconds must be 600 to 43200")
        }
        impersonationLifetime = lifetime
        if let id = text("client_id"), let secret = text("client_secret") {
            client = (id, secret)
        } else {
            client = nil
        }
        workforcePoolUserProject = text("workforce_pool_user_project")
        if workforcePoolUserProject != nil,
            audience.range(of: #"^//iam\.googleapis\.com/locations/[^/]+/workforcePools/"#, options: .regularExpression)
                == nil
        {
            throw Self.invalid("workforce_pool_user_project is only for workforce pools")
        }
        self.audience = audience
        self.subjectTokenType = subjectTokenType
        self.environment = environment
        source = try Self.source(object["credential_source"] as? [String: Any] ?? [:])
    }

    /// The subject token's source of a `credential_source` object.
    private static func source(_ object: [String: Any]) throws(CloudStoreError) -> SubjectSource {
        let format: Format
        switch (object["format"] as? [String: Any])?["type"] as? String ?? "text" {
        case "text": format = .text
        case "json":
            guard let field = (object["format"] as? [String: Any])?["subject_token_field_name"] as? String,
                !field.isEmpty
            else { throw invalid("a json credential_source format needs subject_token_field_name") }
            format = .json(field: field)
        default: throw invalid("credential_source.format.type must be text or json")
        }
        if let environmentID = object["environment_id"] as? String {
            return .aws(try GoogleAWSSource(object, environmentID: environmentID))
        }
        if let path = object["file"] as? String, !path.isEmpty, object["url"] == nil {
            return .file(path: path, format: format)
        }
        if let text = object["url"] as? String, object["file"] == nil {
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                url.host?.isEmpty == false
            else { throw invalid("credential_source.url is not an http(s) URL") }
            var headers: [String: String] = [:]
            for (name, value) in object["headers"] as? [String: Any] ?? [:] {
                guard let value = value as? String, !name.contains(where: \.isNewline),
                    !value.contains(where: \.isNewline)
                else { throw invalid("credential_source.headers must be strings on one line") }
                headers[name] = value
            }
            return .url(url, headers: headers, format: format)
        }
        if let executable = object["executable"] as? [String: Any] {
            let command = (executable["command"] as? String ?? "").split(whereSeparator: \.isWhitespace)
                .map(String.init)
            guard !command.isEmpty else { throw invalid("credential_source.executable needs a command") }
            let millis = (executable["timeout_millis"] as? NSNumber)?.intValue ?? 30_000
            guard (5_000...120_000).contains(millis) else {
                throw invalid("credential_source.executable.timeout_millis must be 5000 to 120000")
            }
            let output = (executable["output_file"] as? String).flatMap { $0.isEmpty ? nil : $0 }
            return .executable(command: command, timeout: .milliseconds(millis), outputFile: output)
        }
        throw invalid("credential_source must have one of file, url, executable or environment_id")
    }

    /// `text` as the `https` URL of Google's `service` in `universe`, or an URL of a loopback address.
    static func googleURL(
        _ text: String, service: String, universe: String, field: String
    ) throws(CloudStoreError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(),
            ["http", "https"].contains(scheme)
        else { throw invalid("\(field) is not an http(s) URL") }
        if isLoopback(host) { return url }
        let domain = NSRegularExpression.escapedPattern(for: universe.lowercased())
        let label = #"[^\.\s\/\\]+"#
        let patterns = [
            "^\(service)\\.\(domain)$", "^\(service)\\.\(label)\\.\(domain)$",
            "^\(service)\\.\(label)\\.rep\\.\(domain)$", "^\(label)\\.\(service)\\.\(domain)$",
            "^\(label)-\(service)\\.\(domain)$", "^\(service)-\(label)\\.p\\.\(domain)$",
        ]
        guard scheme == "https", patterns.contains(where: { host.range(of: $0, options: .regularExpression) != nil })
        else { throw invalid("\(field) must be https on Google's \(service) host, or a loopback address") }
        return url
    }

    /// Whether `host` is `localhost`, in 127.0.0.0/8 or `::1`.
    static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        if bare == "localhost" || bare == "::1" { return true }
        let parts = bare.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    static func invalid(_ message: String) -> CloudStoreError {
        CloudStoreError(.invalidKey, "the external_account credentials: " + message)
    }

    /// The service account impersonated, from the impersonation URL (`…/serviceAccounts/EMAIL:generateAccessToken`).
    var impersonatedEmail: String? {
        guard let last = impersonationURL?.path.split(separator: "/").last, last.hasSuffix(":generateAccessToken")
        else { return nil }
        return String(last.dropLast(":generateAccessToken".count))
    }

    /// The pool provider and the subject token's kind; never a token or a secret.
    var description: String {
        let kind =
            switch source {
            case .file: "file"
            case .url: "url"
            case .executable: "executable"
            case .aws: "aws"
            }
        return "external account \(audience) (\(kind))" + (impersonatedEmail.map { " as \($0)" } ?? "")
    }
}
