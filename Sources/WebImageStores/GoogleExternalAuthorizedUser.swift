import Foundation
import WebImage

/// A workforce identity federation user's refresh token, the `external_account_authorized_user` file of `gcloud auth
/// application-default login` with a workforce pool: its tokens are asked at `token_url` (Google's STS,
/// `/v1/oauthtoken`) with OAuth 2.0's refresh-token grant, the client authenticated with HTTP Basic. A refresh token
/// the answer rotates replaces the file's for the next request, as in Go's `externalaccountauthorizeduser` package.
struct GoogleExternalAuthorizedUser: Sendable, CustomStringConvertible {
    let audience: String
    let clientID: String
    let clientSecret: String
    let tokenURL: URL
    /// The refresh token: the file's, then the last one the token service gave.
    let refreshToken: Locked<String>

    /// The user of an `external_account_authorized_user` JSON object.
    ///
    /// - Throws: ``CloudStoreError/Code/invalidKey`` without a client id, a client secret or a refresh token, or with
    ///   a token URL that is neither Google's STS (`https`) nor a loopback address.
    init(_ object: [String: Any]) throws(CloudStoreError) {
        func text(_ name: String) -> String? { (object[name] as? String).flatMap { $0.isEmpty ? nil : $0 } }
        guard let clientID = text("client_id"), let clientSecret = text("client_secret"),
            let refreshToken = text("refresh_token")
        else {
            throw CloudStoreError(
                .invalidKey,
                "the external_account_authorized_user credentials need client_id, client_secret and refresh_token")
        }
        tokenURL = try GoogleExternalAccount.googleURL(
            text("token_url") ?? "https://sts.googleapis.com/v1/oauthtoken", service: "sts",
            universe: text("universe_domain") ?? "googleapis.com", field: "token_url")
        audience = text("audience") ?? ""
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.refreshToken = Locked(refreshToken)
    }

    /// A token and its lifetime, for the scopes the refresh token was granted.
    func token(http: StoreHTTPClient, timeout: Duration) async throws(WebImageError) -> (String, Duration) {
        let refresh = refreshToken.withLock { $0 }
        let form = "grant_type=refresh_token&refresh_token=" + StoreHTTPClient.escape(refresh)
        let pair = StoreHTTPClient.escape(clientID) + ":" + StoreHTTPClient.escape(clientSecret)
        let response = try await http.send(
            .POST, tokenURL.absoluteString,
            headers: [
                ("Content-Type", "application/x-www-form-urlencoded"),
                ("Authorization", "Basic " + Data(pair.utf8).base64EncodedString()),
            ], body: Data(form.utf8), timeout: timeout, maxSize: 64 << 10, operation: "token refresh")
        guard response.status == 200 else {
            throw GoogleExternalAccount.refusal(
                "the security token service refused the refresh token of \(self)", status: response.status)
        }
        let token = try OAuthToken.read(response.body)
        if let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
            let rotated = object["refresh_token"] as? String, !rotated.isEmpty
        {
            refreshToken.withLock { $0 = rotated }
        }
        return token
    }

    /// The pool and the client id; never the secret or the token.
    var description: String { "workforce user \(audience) (client \(clientID))" }
}
