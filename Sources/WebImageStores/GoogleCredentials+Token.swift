import Foundation
import NIOHTTP1
import WebImage

extension GoogleCredentials {
    /// Tokens of `scope`, got through `http` within `timeout` and cached until shortly before they expire.
    func tokens(scope: String, http: StoreHTTPClient, timeout: Duration) -> AccessTokenCache {
        AccessTokenCache { try await token(scope: scope, http: http, timeout: timeout) }
    }

    /// One token of `scope` and its lifetime: a service account's signed assertion or a user's refresh token
    /// exchanged at its token URI, an external account's subject token exchanged at Google's STS, or the metadata
    /// server's token.
    func token(
        scope: String, http: StoreHTTPClient, timeout: Duration
    ) async throws(WebImageError) -> (String, Duration) {
        let response: StoreHTTPClient.Response
        let who: String
        switch source {
        case .serviceAccount(let account):
            let assertion: String
            do { assertion = try account.assertion(scope: scope) } catch {
                throw WebImageError(.invalidArgument, error.message, underlying: error)
            }
            let form = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=" + assertion
            who = "the service-account key of \(account.clientEmail)"
            response = try await http.send(
                .POST, account.tokenURI.absoluteString,
                headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Data(form.utf8),
                timeout: timeout, maxSize: 64 << 10, operation: "token exchange")
        case .authorizedUser(let user):
            who = "the refresh token of \(user)"
            response = try await http.send(
                .POST, user.tokenURI.absoluteString,
                headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Data(user.form.utf8),
                timeout: timeout, maxSize: 64 << 10, operation: "token refresh")
        case .externalAccount(let account):
            return try await account.token(scope: scope, http: http, timeout: timeout)
        case .externalAuthorizedUser(let user):
            return try await user.token(http: http, timeout: timeout)
        case .metadataServer(let host):
            who = "the metadata server \(host)"
            response = try await http.send(
                .GET,
                "http://\(host)/computeMetadata/v1/instance/service-accounts/default/token?scopes="
                    + StoreHTTPClient.escape(scope),
                headers: [("Metadata-Flavor", "Google")], timeout: timeout, maxSize: 64 << 10,
                operation: "metadata token")
        }
        guard response.status == 200 else {
            let error = CloudStoreError(.authenticationFailed, "\(who) gave no token (\(response.status))")
            throw WebImageError(.badStatus, error.message, httpStatus: response.status, underlying: error)
        }
        return try OAuthToken.read(response.body)
    }
}
