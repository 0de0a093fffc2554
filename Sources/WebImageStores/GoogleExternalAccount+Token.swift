import Foundation
import WebImage

extension GoogleExternalAccount {
    /// A Google access token of `scope` and its lifetime: the subject token exchanged at ``tokenURL`` (RFC 8693's
    /// token exchange, as Google's STS takes it), then, with an impersonation URL, the STS token exchanged for the
    /// service account's (IAM's `generateAccessToken`).
    func token(
        scope: String, http: StoreHTTPClient, timeout: Duration
    ) async throws(WebImageError) -> (String, Duration) {
        let subject = try await subjectToken(http: http, timeout: timeout)
        var fields = [
            ("grant_type", "urn:ietf:params:oauth:grant-type:token-exchange"), ("audience", audience),
            ("scope", impersonationURL == nil ? scope : "https://www.googleapis.com/auth/cloud-platform"),
            ("requested_token_type", "urn:ietf:params:oauth:token-type:access_token"),
            ("subject_token", subject), ("subject_token_type", subjectTokenType),
        ]
        var headers = [("Content-Type", "application/x-www-form-urlencoded")]
        if let client {
            let pair = StoreHTTPClient.escape(client.id) + ":" + StoreHTTPClient.escape(client.secret)
            headers.append(("Authorization", "Basic " + Data(pair.utf8).base64EncodedString()))
        } else if let workforcePoolUserProject {
            let options = (try? JSONSerialization.data(withJSONObject: ["userProject": workforcePoolUserProject]))
            fields.append(("options", String(decoding: options ?? Data(), as: UTF8.self)))
        }
        let form = fields.map { $0.0 + "=" + StoreHTTPClient.escape($0.1) }.joined(separator: "&")
        let response = try await http.send(
            .POST, tokenURL.absoluteString, headers: headers, body: Data(form.utf8), timeout: timeout,
            maxSize: 64 << 10, operation: "token exchange")
        guard response.status == 200 else {
            throw Self.refusal("the security token service refused the subject token", status: response.status)
        }
        let exchanged = try OAuthToken.read(response.body)
        guard let impersonationURL else { return exchanged }
        return try await impersonate(
            impersonationURL, with: exchanged.0, scope: scope, http: http, timeout: timeout)
    }

    /// The service account's token of `scope`, asked with the STS token `token`.
    private func impersonate(
        _ url: URL, with token: String, scope: String, http: StoreHTTPClient, timeout: Duration, now: Date = Date()
    ) async throws(WebImageError) -> (String, Duration) {
        let request: [String: Any] = ["lifetime": "\(impersonationLifetime)s", "scope": [scope]]
        let body = (try? JSONSerialization.data(withJSONObject: request, options: .sortedKeys)) ?? Data()
        let response = try await http.send(
            .POST, url.absoluteString,
            headers: [("Content-Type", "application/json"), ("Authorization", "Bearer " + token)], body: body,
            timeout: timeout, maxSize: 64 << 10, operation: "service account impersonation")
        guard response.status == 200 else {
            throw Self.refusal(
                "IAM refused to impersonate \(impersonatedEmail ?? "the service account")",
                status: response.status)
        }
        guard let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
            let value = object["accessToken"] as? String, !value.isEmpty,
            value.allSatisfy({ $0.isASCII && !$0.isWhitespace && !$0.isNewline }),
            let expiry = (object["expireTime"] as? String).flatMap({ ISO8601DateFormatter().date(from: $0) })
        else { throw GoogleAWSSource.failure("the impersonation answer has no accessToken and expireTime") }
        let seconds = expiry.timeIntervalSince(now)
        return (value, seconds > 0 ? .seconds(min(seconds, 86_400)) : .seconds(0))
    }

    /// The error of a refusal with `status`.
    static func refusal(_ message: String, status: Int) -> WebImageError {
        let error = CloudStoreError(.authenticationFailed, "\(message) (\(status))")
        return WebImageError(.badStatus, error.message, httpStatus: status, underlying: error)
    }
}
