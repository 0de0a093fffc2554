import Foundation
import WebImage

/// How an OpenStack Swift client signs in, as imgproxy's client (ncw/swift) does: v1 (`X-Auth-User` and
/// `X-Auth-Key` to the auth URL, answered with `X-Storage-Url` and `X-Auth-Token`), v2 (Keystone `POST …/tokens`,
/// password credentials with the tenant, then Rackspace's API-key credentials on a 401) or v3 (Keystone
/// `POST …/auth/tokens`, password with the user's domain, scoped to the tenant's project; the token in
/// `X-Subject-Token`). For v2 and v3 the storage URL is the public endpoint of the catalog's `object-store`. Version
/// 0 is read from the auth URL: `v3`, else `v2`, else `v1` in it.
public struct SwiftAuthentication: Sendable, CustomStringConvertible {
    /// A signed-in session: where the account's objects are and the token that reads them.
    struct Session: Sendable {
        let storageURL: String
        let token: String
    }

    /// The user name.
    public var username: String
    /// The API key or password (never in an error or a log).
    public var apiKey: String
    /// The auth URL.
    public var authURL: URL
    /// The user's (and project's) domain, for v3.
    public var domain: String
    /// The tenant (project), for v2 and v3.
    public var tenant: String
    /// 1, 2 or 3.
    public let version: Int

    /// The settings of a sign-in; `version` 0 is read from `authURL`.
    ///
    /// - Throws: ``CloudStoreError/Code/invalidSetting`` for a version other than 0 to 3, or 0 with an auth URL
    ///   naming none.
    public init(
        username: String, apiKey: String, authURL: URL, domain: String = "", tenant: String = "", version: Int = 0
    ) throws(CloudStoreError) {
        self.username = username
        self.apiKey = apiKey
        self.authURL = authURL
        self.domain = domain
        self.tenant = tenant
        let text = authURL.absoluteString
        switch version {
        case 1, 2, 3: self.version = version
        case 0 where text.contains("v3"): self.version = 3
        case 0 where text.contains("v2"): self.version = 2
        case 0 where text.contains("v1"): self.version = 1
        case 0:
            throw CloudStoreError(
                .invalidSetting, "IMGPROXY_SWIFT_AUTH_URL names no auth version; set IMGPROXY_SWIFT_AUTH_VERSION")
        default: throw CloudStoreError(.invalidSetting, "IMGPROXY_SWIFT_AUTH_VERSION must be 0, 1, 2 or 3")
        }
    }

    /// The user, the auth URL and the version; never the key.
    public var description: String { "Swift v\(version) sign-in of \(username) at \(authURL)" }

    /// Signs in through `http` within `timeout`.
    func signIn(http: StoreHTTPClient, timeout: Duration) async throws(WebImageError) -> Session {
        switch version {
        case 1:
            let response = try await http.send(
                .GET, authURL.absoluteString, headers: [("X-Auth-User", username), ("X-Auth-Key", apiKey)],
                timeout: timeout, maxSize: 1 << 20, operation: "v1 sign-in")
            try Self.check(response)
            guard let storage = response.headers.first(name: "x-storage-url"),
                let token = response.headers.first(name: "x-auth-token"), !token.isEmpty
            else { throw Self.failure("the v1 sign-in answer has no X-Storage-Url or X-Auth-Token") }
            return Session(storageURL: storage, token: token)
        case 2:
            var response = try await http.send(
                .POST, Self.joined(authURL, "tokens"), headers: [("Content-Type", "application/json")],
                body: v2Body(apiKey: false), timeout: timeout, maxSize: 4 << 20, operation: "v2 sign-in")
            if response.status == 401 {
                response = try await http.send(
                    .POST, Self.joined(authURL, "tokens"), headers: [("Content-Type", "application/json")],
                    body: v2Body(apiKey: true), timeout: timeout, maxSize: 4 << 20, operation: "v2 sign-in")
            }
            try Self.check(response)
            let access = Self.json(response.body)?["access"] as? [String: Any]
            guard let token = (access?["token"] as? [String: Any])?["id"] as? String, !token.isEmpty else {
                throw Self.failure("the v2 sign-in answer has no token")
            }
            let catalog = access?["serviceCatalog"] as? [[String: Any]] ?? []
            let endpoints = catalog.first { $0["type"] as? String == "object-store" }?["endpoints"] as? [[String: Any]]
            guard let storage = endpoints?.first?["publicURL"] as? String else {
                throw Self.failure("the v2 catalog has no object-store endpoint")
            }
            return Session(storageURL: storage, token: token)
        default:
            let response = try await http.send(
                .POST, Self.joined(authURL, "auth/tokens"), headers: [("Content-Type", "application/json")],
                body: v3Body(), timeout: timeout, maxSize: 4 << 20, operation: "v3 sign-in")
            try Self.check(response)
            guard let token = response.headers.first(name: "x-subject-token"), !token.isEmpty else {
                throw Self.failure("the v3 sign-in answer has no X-Subject-Token")
            }
            let catalog = (Self.json(response.body)?["token"] as? [String: Any])?["catalog"] as? [[String: Any]] ?? []
            let endpoints = catalog.first { $0["type"] as? String == "object-store" }?["endpoints"] as? [[String: Any]]
            guard let storage = endpoints?.first(where: { $0["interface"] as? String == "public" })?["url"] as? String
            else { throw Self.failure("the v3 catalog has no public object-store endpoint") }
            return Session(storageURL: storage, token: token)
        }
    }

    private func v2Body(apiKey useKey: Bool) -> Data {
        var auth: [String: Any] =
            useKey
            ? ["RAX-KSKEY:apiKeyCredentials": ["username": username, "apiKey": apiKey]]
            : ["passwordCredentials": ["username": username, "password": apiKey]]
        if !tenant.isEmpty { auth["tenantName"] = tenant }
        return (try? JSONSerialization.data(withJSONObject: ["auth": auth], options: .sortedKeys)) ?? Data()
    }

    private func v3Body() -> Data {
        var user: [String: Any] = ["name": username, "password": apiKey]
        if !domain.isEmpty { user["domain"] = ["name": domain] }
        var auth: [String: Any] = ["identity": ["methods": ["password"], "password": ["user": user]]]
        if !tenant.isEmpty {
            var project: [String: Any] = ["name": tenant]
            if !domain.isEmpty { project["domain"] = ["name": domain] }
            auth["scope"] = ["project": project]
        }
        return (try? JSONSerialization.data(withJSONObject: ["auth": auth], options: .sortedKeys)) ?? Data()
    }

    private static func check(_ response: StoreHTTPClient.Response) throws(WebImageError) {
        guard !(200..<300).contains(response.status) else { return }
        let error = CloudStoreError(.authenticationFailed, "the Swift sign-in was refused (\(response.status))")
        throw WebImageError(.badStatus, error.message, httpStatus: response.status, underlying: error)
    }

    private static func failure(_ message: String) -> WebImageError {
        WebImageError(.invalidResponse, message, underlying: CloudStoreError(.authenticationFailed, message))
    }

    private static func json(_ data: Data) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    /// `url` with `path` appended after one `/`.
    private static func joined(_ url: URL, _ path: String) -> String {
        let text = url.absoluteString
        return (text.hasSuffix("/") ? text : text + "/") + path
    }
}
