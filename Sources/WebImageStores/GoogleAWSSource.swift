import Foundation
import NIOHTTP1
import WebImage

/// An `aws` subject token source of Google's workload identity federation (`environment_id` `aws1`): the subject
/// token is a `GetCallerIdentity` request signed with Signature Version 4 by the AWS credentials where the server
/// runs, serialised as Google documents it (the URL, `POST`, and the signed headers, as JSON, URL-encoded), which
/// Google's STS sends on to AWS to learn who signed it.
///
/// The region is `AWS_REGION`, else `AWS_DEFAULT_REGION`, else the instance's availability zone from `region_url`
/// without its last letter; the credentials are `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY` (with
/// `AWS_SESSION_TOKEN`), else the instance role's from `url`. With `imdsv2_session_token_url`, the metadata is asked
/// with an IMDSv2 session token. The metadata URLs must be AWS's metadata addresses (`169.254.169.254`,
/// `fd00:ec2::254`) or loopback.
struct GoogleAWSSource: Sendable {
    let regionURL: URL?
    let credentialsURL: URL?
    let sessionTokenURL: URL?
    /// The `GetCallerIdentity` URL, `{region}` standing for the region.
    let verificationURL: String

    /// The source of a `credential_source` object whose `environment_id` is `environmentID`.
    ///
    /// - Throws: ``CloudStoreError/Code/invalidKey`` for an environment other than `aws1` or an URL that is not
    ///   allowed.
    init(_ object: [String: Any], environmentID: String) throws(CloudStoreError) {
        guard environmentID == "aws1" else {
            throw GoogleExternalAccount.invalid("credential_source.environment_id must be aws1")
        }
        func metadata(_ field: String) throws(CloudStoreError) -> URL? {
            guard let text = object[field] as? String, !text.isEmpty else { return nil }
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                let host = url.host?.lowercased(),
                ["169.254.169.254", "fd00:ec2::254", "[fd00:ec2::254]"].contains(host)
                    || GoogleExternalAccount.isLoopback(host)
            else {
                throw GoogleExternalAccount.invalid(
                    "credential_source.\(field) must be on AWS's metadata address (169.254.169.254, fd00:ec2::254)")
            }
            return url
        }
        regionURL = try metadata("region_url")
        credentialsURL = try metadata("url")
        sessionTokenURL = try metadata("imdsv2_session_token_url")
        guard let verification = object["regional_cred_verification_url"] as? String,
            let url = URL(string: verification.replacingOccurrences(of: "{region}", with: "region")),
            ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false
        else {
            throw GoogleExternalAccount.invalid("credential_source.regional_cred_verification_url is not an URL")
        }
        verificationURL = verification
    }

    /// The subject token: the signed request for `audience`, with `environment`'s or the metadata's credentials.
    func subjectToken(
        audience: String, environment: [String: String], http: StoreHTTPClient, timeout: Duration, date: Date = Date()
    ) async throws(WebImageError) -> String {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        var region = value("AWS_REGION") ?? value("AWS_DEFAULT_REGION")
        var credentials = value("AWS_ACCESS_KEY_ID").flatMap { key in
            value("AWS_SECRET_ACCESS_KEY").map {
                S3Credentials(accessKey: key, secretKey: $0, sessionToken: value("AWS_SESSION_TOKEN"))
            }
        }
        var headers: [(String, String)] = []
        if region == nil || credentials == nil, let sessionTokenURL {
            let token = try await fetch(
                .PUT, sessionTokenURL.absoluteString, [("X-aws-ec2-metadata-token-ttl-seconds", "300")], http: http,
                timeout: timeout, what: "the IMDSv2 session token")
            headers = [("X-aws-ec2-metadata-token", token)]
        }
        if region == nil {
            guard let regionURL else { throw Self.failure("no AWS region: no AWS_REGION and no region_url") }
            let zone = try await fetch(
                .GET, regionURL.absoluteString, headers, http: http, timeout: timeout, what: "the region")
            region = String(zone.dropLast())
        }
        if credentials == nil {
            guard let credentialsURL else { throw Self.failure("no AWS credentials: no AWS_ACCESS_KEY_ID and no url") }
            let role = try await fetch(
                .GET, credentialsURL.absoluteString, headers, http: http, timeout: timeout, what: "the role")
            var base = credentialsURL.absoluteString
            while base.hasSuffix("/") { base.removeLast() }
            let text = try await fetch(
                .GET, base + "/" + StoreHTTPClient.escape(role), headers, http: http, timeout: timeout,
                what: "the role's credentials")
            guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                let key = object["AccessKeyId"] as? String, let secret = object["SecretAccessKey"] as? String
            else { throw Self.failure("the instance metadata's credentials have no AccessKeyId and SecretAccessKey") }
            credentials = S3Credentials(accessKey: key, secretKey: secret, sessionToken: object["Token"] as? String)
        }
        guard let region, let credentials,
            region.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }), !region.isEmpty
        else { throw Self.failure("the AWS region is not a region name") }
        return try Self.signedRequest(
            url: verificationURL.replacingOccurrences(of: "{region}", with: region), region: region,
            credentials: credentials, audience: audience, date: date)
    }

    /// The `GetCallerIdentity` request at `url` signed for `audience`, serialised and URL-encoded as Go's
    /// `externalaccount` package writes it: `{"url", "method", "headers": [{"key", "value"}…]}`, the headers sorted
    /// by name.
    static func signedRequest(
        url: String, region: String, credentials: S3Credentials, audience: String, date: Date
    ) throws(WebImageError) -> String {
        guard let components = URLComponents(string: url), let host = components.host else {
            throw failure("the verification URL has no host")
        }
        let hostHeader = host + (components.port.map { ":\($0)" } ?? "")
        let stamp = SignatureV4.timestamp(date)
        var headers = [("host", hostHeader), ("x-amz-date", stamp), ("x-goog-cloud-target-resource", audience)]
        if let token = credentials.sessionToken { headers.append(("x-amz-security-token", token)) }
        let query = (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }
        let signer = SignatureV4(credentials: credentials, region: region, service: "sts")
        let authorization = signer.authorization(
            method: "POST", path: components.path.isEmpty ? "/" : components.path, query: query,
            headers: headers.map { ($0.0, SignatureV4.trimmed($0.1)) }, payloadHash: SignatureV4.emptyPayloadHash,
            timestamp: stamp)
        let names = [
            "host": "Host", "x-amz-date": "X-Amz-Date", "x-goog-cloud-target-resource": "X-Goog-Cloud-Target-Resource",
            "x-amz-security-token": "X-Amz-Security-Token",
        ]
        let all = [("Authorization", authorization)] + headers.map { (names[$0.0] ?? $0.0, $0.1) }
        let request: [String: Any] = [
            "url": url, "method": "POST",
            "headers": all.sorted { $0.0 < $1.0 }.map { ["key": $0.0, "value": $0.1] },
        ]
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: request, options: [.sortedKeys, .withoutEscapingSlashes])
        else { throw failure("the signed request could not be written") }
        return String(decoding: data, as: UTF8.self).addingPercentEncoding(withAllowedCharacters: queryEscaped)?
            .replacingOccurrences(of: "%20", with: "+") ?? ""
    }

    /// What Go's `url.QueryEscape` leaves as it is.
    private static let queryEscaped = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// The text the metadata answers at `url`, at most 64 KiB.
    private func fetch(
        _ method: HTTPMethod, _ url: String, _ headers: [(String, String)], http: StoreHTTPClient,
        timeout: Duration, what: String
    ) async throws(WebImageError) -> String {
        let response = try await http.send(
            method, url, headers: headers, timeout: timeout, maxSize: 64 << 10, operation: "AWS metadata (\(what))")
        guard response.status == 200 else {
            throw Self.failure("the AWS metadata gave no \(what) (\(response.status))")
        }
        return String(decoding: response.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func failure(_ message: String) -> WebImageError {
        let error = CloudStoreError(.authenticationFailed, message)
        return WebImageError(.invalidResponse, error.message, underlying: error)
    }
}
