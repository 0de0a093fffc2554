import Foundation
import NIOHTTP1
import WebImage

extension AzureCredentials {
    /// Tokens got through `http` within `timeout` and cached until shortly before they expire.
    func tokens(http: StoreHTTPClient, timeout: Duration) -> AccessTokenCache {
        AccessTokenCache { try await token(http: http, timeout: timeout) }
    }

    /// One token of the storage scope and its lifetime: the source's, else the first of the developer tools after it
    /// that gives one; once one did, that one's alone, as azidentity's chain keeps asking the credential that gave a
    /// token.
    func token(http: StoreHTTPClient, timeout: Duration) async throws(WebImageError) -> (String, Duration) {
        if fallbacks.isEmpty {
            let token = try await sourceToken(http: http, timeout: timeout)
            chosen.withLock { $0 = 0 }
            return token
        }
        if let index = chosen.withLock({ $0 }) {
            if index == 0 { return try await sourceToken(http: http, timeout: timeout) }
            return try await fallbacks[index - 1].token()
        }
        var failures: [String] = []
        for index in 0...fallbacks.count {
            do {
                let token: (String, Duration)
                if index == 0 {
                    token = try await sourceToken(http: http, timeout: timeout)
                } else {
                    token = try await fallbacks[index - 1].token()
                }
                chosen.withLock { $0 = index }
                return token
            } catch { failures.append(error.message) }
        }
        let error = CloudStoreError(
            .authenticationFailed, "no credential gave a token: " + failures.joined(separator: "; "))
        throw WebImageError(.connectionFailed, error.message, underlying: error)
    }

    /// One token of the storage scope and its lifetime from the first source, asked as azidentity asks it: Microsoft
    /// Entra ID's client-credentials grant (`AUTHORITY/TENANT/oauth2/v2.0/token`) with the secret, a certificate's
    /// assertion or the federated token (read anew each time: it is rotated), or a managed identity's endpoint (App
    /// Service's with `X-IDENTITY-HEADER`, api-version 2019-08-01; IMDS's with `Metadata: true`, api-version
    /// 2018-02-01), or the developer tool's output.
    private func sourceToken(
        http: StoreHTTPClient, timeout: Duration
    ) async throws(WebImageError) -> (String, Duration) {
        let form = "application/x-www-form-urlencoded"
        let response: StoreHTTPClient.Response
        switch source {
        case .clientSecret(let tenant, let clientID, let secret, let authority):
            let body = Self.form([
                ("client_id", clientID), ("client_secret", secret), ("scope", Self.scope),
                ("grant_type", "client_credentials"),
            ])
            response = try await http.send(
                .POST, Self.tokenURL(authority, tenant), headers: [("Content-Type", form)], body: Data(body.utf8),
                timeout: timeout, maxSize: 64 << 10, operation: "token request")
        case .clientCertificate(let tenant, let clientID, let certificate, let authority):
            let url = Self.tokenURL(authority, tenant)
            let assertion: String
            do { assertion = try certificate.assertion(clientID: clientID, audience: url) } catch {
                throw WebImageError(.invalidArgument, error.message, underlying: error)
            }
            response = try await http.send(
                .POST, url, headers: [("Content-Type", form)],
                body: Data(Self.assertionForm(clientID: clientID, assertion: assertion).utf8), timeout: timeout,
                maxSize: 64 << 10, operation: "token request")
        case .workloadIdentity(let tenant, let clientID, let tokenFile, let authority):
            guard let data = FileManager.default.contents(atPath: tokenFile), !data.isEmpty, data.count <= 64 << 10
            else {
                let error = CloudStoreError(
                    .authenticationFailed, "AZURE_FEDERATED_TOKEN_FILE: cannot read \(tokenFile)")
                throw WebImageError(.invalidArgument, error.message, underlying: error)
            }
            let assertion = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            response = try await http.send(
                .POST, Self.tokenURL(authority, tenant), headers: [("Content-Type", form)],
                body: Data(Self.assertionForm(clientID: clientID, assertion: assertion).utf8), timeout: timeout,
                maxSize: 64 << 10, operation: "token request")
        case .appService(let endpoint, let header, let clientID):
            response = try await http.send(
                .GET, Self.managedIdentityURL(endpoint, version: "2019-08-01", clientID: clientID),
                headers: [("X-IDENTITY-HEADER", header)], timeout: timeout, maxSize: 64 << 10,
                operation: "managed identity token")
        case .instanceMetadata(let endpoint, let clientID):
            response = try await http.send(
                .GET, Self.managedIdentityURL(endpoint, version: "2018-02-01", clientID: clientID),
                headers: [("Metadata", "true")], timeout: timeout, maxSize: 64 << 10,
                operation: "managed identity token")
        case .developerTool(let tool):
            return try await tool.token()
        }
        guard response.status == 200 else {
            let error = CloudStoreError(
                .authenticationFailed, "the \(sourceDescription) gave no token (\(response.status))")
            throw WebImageError(.badStatus, error.message, httpStatus: response.status, underlying: error)
        }
        return try OAuthToken.read(response.body)
    }

    /// Microsoft Entra ID's token endpoint of `tenant` under `authority`.
    static func tokenURL(_ authority: URL, _ tenant: String) -> String {
        var base = authority.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return base + "/" + tenant + "/oauth2/v2.0/token"
    }

    /// A managed identity endpoint's URL for the storage resource.
    static func managedIdentityURL(_ endpoint: URL, version: String, clientID: String?) -> String {
        let resource = String(scope.dropLast("/.default".count))
        var url = endpoint.absoluteString + "?" + form([("api-version", version), ("resource", resource)])
        if let clientID { url += "&client_id=" + StoreHTTPClient.escape(clientID) }
        return url
    }

    /// The form of a client-credentials grant with a client assertion.
    private static func assertionForm(clientID: String, assertion: String) -> String {
        form([
            ("client_id", clientID), ("client_assertion", assertion),
            ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"),
            ("scope", scope), ("grant_type", "client_credentials"),
        ])
    }

    /// `fields` as `name=value` pairs joined by `&`, each value percent-encoded.
    private static func form(_ fields: [(String, String)]) -> String {
        fields.map { $0.0 + "=" + StoreHTTPClient.escape($0.1) }.joined(separator: "&")
    }
}
