import Foundation

/// A user's refresh token, the `authorized_user` file `gcloud auth application-default login` writes: its tokens are
/// asked at the token URI with OAuth 2.0's refresh-token grant.
struct GoogleAuthorizedUser: Sendable, CustomStringConvertible {
    let clientID: String
    let clientSecret: String
    let refreshToken: String
    let tokenURI: URL

    /// The refresh token of an `authorized_user` JSON object.
    ///
    /// - Throws: ``CloudStoreError/Code/invalidKey`` without a client id, a client secret or a refresh token, or
    ///   with a token URI that is not `http(s)`.
    init(_ object: [String: Any]) throws(CloudStoreError) {
        guard let clientID = object["client_id"] as? String, !clientID.isEmpty,
            let clientSecret = object["client_secret"] as? String, !clientSecret.isEmpty,
            let refreshToken = object["refresh_token"] as? String, !refreshToken.isEmpty
        else {
            throw CloudStoreError(
                .invalidKey, "the authorized_user credentials need client_id, client_secret and refresh_token")
        }
        let uri = (object["token_uri"] as? String) ?? "https://oauth2.googleapis.com/token"
        guard let tokenURI = URL(string: uri), ["http", "https"].contains(tokenURI.scheme?.lowercased() ?? ""),
            tokenURI.host?.isEmpty == false
        else { throw CloudStoreError(.invalidKey, "the authorized_user credentials' token_uri is not an http(s) URL") }
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.refreshToken = refreshToken
        self.tokenURI = tokenURI
    }

    /// The form of a refresh-token grant.
    var form: String {
        func escape(_ text: String) -> String { StoreHTTPClient.escape(text) }
        return "grant_type=refresh_token&client_id=\(escape(clientID))&client_secret=\(escape(clientSecret))"
            + "&refresh_token=\(escape(refreshToken))"
    }

    /// The client id; never the secret or the token.
    var description: String { "authorized user (client \(clientID))" }
}
