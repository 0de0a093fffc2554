import Foundation

/// A Sentry DSN, `SCHEME://PUBLIC_KEY[:SECRET]@HOST[:PORT][/PATH]/PROJECT_ID`, and the endpoint and auth header it
/// gives, as sentry-go reads it.
struct SentryDSN: Sendable, Equatable {
    let publicKey: String
    /// The deprecated secret key, sent when the DSN has one.
    let secretKey: String?
    let projectID: String
    /// `SCHEME://HOST[:PORT][/PATH]/api/PROJECT_ID/envelope/`.
    let envelopeURL: URL

    /// The DSN `text`; `nil` when it has no public key, no host, no project ID or a scheme other than http(s).
    init?(_ text: String) {
        guard let components = URLComponents(string: text.trimmingCharacters(in: .whitespaces)),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty, let user = components.user, !user.isEmpty
        else { return nil }
        var segments = components.path.split(separator: "/").map(String.init)
        guard let project = segments.popLast(), !project.isEmpty, project.allSatisfy(\.isASCII),
            project.allSatisfy({ $0.isLetter || $0.isNumber })
        else { return nil }
        var endpoint = URLComponents()
        endpoint.scheme = scheme
        endpoint.host = host
        endpoint.port = components.port
        endpoint.path = "/" + (segments + ["api", project, "envelope"]).joined(separator: "/") + "/"
        guard let url = endpoint.url else { return nil }
        publicKey = user
        secretKey = components.password.flatMap { $0.isEmpty ? nil : $0 }
        projectID = project
        envelopeURL = url
    }

    /// The `X-Sentry-Auth` header for a client named `client`.
    func authHeader(client: String) -> String {
        "Sentry sentry_version=7, sentry_client=\(client), sentry_key=\(publicKey)"
            + (secretKey.map { ", sentry_secret=\($0)" } ?? "")
    }
}
