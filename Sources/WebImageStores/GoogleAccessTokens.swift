import Foundation
import NIOHTTP1
import WebImage

/// OAuth 2.0 access tokens of a ``GoogleServiceAccount`` for one scope: a signed assertion exchanged at the key's
/// token URI, kept until a minute before it expires (at most half its lifetime early) and shared by every request,
/// so that concurrent requests without a token wait for one exchange.
actor GoogleAccessTokens {
    private let account: GoogleServiceAccount
    private let scope: String
    private let http: StoreHTTPClient
    private let timeout: Duration
    private var token: (value: String, renewAfter: ContinuousClock.Instant)?
    private var exchange: Task<(String, Duration), any Error>?

    /// Tokens of `account` for `scope`, exchanged through `http` within `timeout`.
    init(account: GoogleServiceAccount, scope: String, http: StoreHTTPClient, timeout: Duration) {
        self.account = account
        self.scope = scope
        self.http = http
        self.timeout = timeout
    }

    /// A token valid for at least a minute more (or half its lifetime), exchanged now if there is none.
    func current() async throws(WebImageError) -> String {
        if let token, ContinuousClock.now < token.renewAfter { return token.value }
        let task: Task<(String, Duration), any Error>
        if let exchange {
            task = exchange
        } else {
            let account = account
            let scope = scope
            let http = http
            let timeout = timeout
            task = Task { try await Self.exchange(account: account, scope: scope, http: http, timeout: timeout) }
            exchange = task
        }
        let started = ContinuousClock.now
        do {
            let (value, lifetime) = try await task.value
            if exchange == task {
                exchange = nil
                let margin = min(Duration.seconds(60), lifetime / 2)
                token = (value, started + lifetime - margin)
            }
            return value
        } catch {
            if exchange == task { exchange = nil }
            if let error = error as? WebImageError { throw error }
            throw WebImageError(.connectionFailed, "the token exchange failed: \(error)", underlying: error)
        }
    }

    /// Forgets the token, so that the next request exchanges a new one.
    func invalidate() { token = nil }

    /// One exchange of a signed assertion for a token and its lifetime.
    private static func exchange(
        account: GoogleServiceAccount, scope: String, http: StoreHTTPClient, timeout: Duration
    ) async throws -> (String, Duration) {
        let assertion: String
        do { assertion = try account.assertion(scope: scope) } catch {
            throw WebImageError(.invalidArgument, error.message, underlying: error)
        }
        let form = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=" + assertion
        let response = try await http.send(
            .POST, account.tokenURI.absoluteString,
            headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Data(form.utf8),
            timeout: timeout, maxSize: 64 << 10, operation: "token exchange")
        guard response.status == 200 else {
            let error = CloudStoreError(
                .authenticationFailed,
                "the token service refused the service-account key of \(account.clientEmail) (\(response.status))")
            throw WebImageError(.badStatus, error.message, httpStatus: response.status, underlying: error)
        }
        guard let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
            let value = object["access_token"] as? String, !value.isEmpty,
            value.allSatisfy({ $0.isASCII && !$0.isWhitespace && !$0.isNewline })
        else {
            let error = CloudStoreError(.authenticationFailed, "the token service's answer has no access_token")
            throw WebImageError(.invalidResponse, error.message, underlying: error)
        }
        let seconds = (object["expires_in"] as? NSNumber)?.doubleValue ?? 3600
        let lifetime = seconds.isFinite && seconds > 0 ? Duration.seconds(min(seconds, 86_400)) : .seconds(0)
        return (value, lifetime)
    }
}
