import Foundation
import Hummingbird
import WebImage

/// Google's workload identity federation in the fake: the Security Token Service's token exchange (RFC 8693, with
/// its client authentication and workforce options), IAM's `generateAccessToken` for an impersonated service
/// account, an URL that serves a subject token, and AWS's instance metadata (IMDSv2 session token, availability
/// zone, role credentials) for the `aws` source. Each checks what the real one checks and issues tokens GCS accepts.
extension FakeCloudStore {
    static let federationAudience =
        "//iam.googleapis.com/projects/123/locations/global/workloadIdentityPools/pool/providers/provider"
    static let workforceAudience = "//iam.googleapis.com/locations/global/workforcePools/pool/providers/provider"
    static let subjectToken = "subject.jwt.token"
    static let impersonatedAccount = "reader@project.iam.gserviceaccount.com"
    static let awsAccessKey = "AKIDFEDERATION"
    static let awsSecretKey = "aws-secret-federation"
    static let awsSessionToken = "aws-session-federation"
    static let federationClient = (id: "fed-client", secret: "fed-secret")

    /// An `external_account` file whose STS and IAM are this server's, with `source` as its `credential_source`.
    func externalAccount(
        source: [String: Any], impersonate: Bool = false, extra: [String: Any] = [:],
        tokenType: String = "urn:ietf:params:oauth:token-type:jwt"
    ) -> String {
        var object: [String: Any] = [
            "type": "external_account", "audience": Self.federationAudience, "subject_token_type": tokenType,
            "token_url": base + "/sts/v1/token", "credential_source": source,
        ]
        if impersonate {
            object["service_account_impersonation_url"] =
                base + "/iam/v1/projects/-/serviceAccounts/\(Self.impersonatedAccount):generateAccessToken"
        }
        object.merge(extra) { $1 }
        let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// An `external_account_authorized_user` file whose token URL is this server's.
    func externalAuthorizedUser() -> String {
        let object: [String: Any] = [
            "type": "external_account_authorized_user", "audience": Self.workforceAudience,
            "client_id": Self.federationClient.id, "client_secret": Self.federationClient.secret,
            "refresh_token": "wf-refresh-0", "token_url": base + "/sts/v1/oauthtoken",
        ]
        let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// The answer of a federation endpoint, or `nil` for another path.
    static func federation(_ request: Request, path: String, body: Data, state: Locked<State>) -> Response? {
        let form = query(String(decoding: body, as: UTF8.self))
        let metadataToken = request.headers[HTTPFields.Element.Name("X-aws-ec2-metadata-token")!]
        switch path {
        case "/sts/v1/token":
            return exchange(request, form: form, state: state)
        case "/sts/v1/oauthtoken":
            return refresh(request, form: form, state: state)
        case "/iam/v1/projects/-/serviceAccounts/\(impersonatedAccount):generateAccessToken":
            let header = request.headers[.authorization] ?? ""
            guard header.hasPrefix("Bearer "), state.withLock({ $0.issued.contains(String(header.dropFirst(7))) }),
                let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
                object["lifetime"] as? String == "3600s",
                object["scope"] as? [String] == ["https://www.googleapis.com/auth/devstorage.read_only"]
            else { return jsonResponse(["error": "denied"], status: .forbidden, headers: [:]) }
            let token = state.withLock { state in
                state.identityRequests.append("impersonated")
                let token = "imptok-\(state.identityRequests.count)"
                state.issued.insert(token)
                return token
            }
            let expiry = ISO8601DateFormatter().string(from: Date().addingTimeInterval(3600))
            return jsonResponse(["accessToken": token, "expireTime": expiry], status: .ok, headers: [:])
        case "/subject":
            guard request.headers[HTTPFields.Element.Name("X-Subject")!] == "yes" else {
                return Response(status: .forbidden)
            }
            return jsonResponse(["id_token": subjectToken], status: .ok, headers: [:])
        case "/latest/api/token" where request.method == .put:
            guard request.headers[HTTPFields.Element.Name("X-aws-ec2-metadata-token-ttl-seconds")!] == "300" else {
                return Response(status: .badRequest)
            }
            return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: "imds-session")))
        case "/latest/meta-data/placement/availability-zone" where metadataToken == "imds-session":
            return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: "us-east-2b")))
        case "/latest/meta-data/iam/security-credentials" where metadataToken == "imds-session":
            return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: "role-1")))
        case "/latest/meta-data/iam/security-credentials/role-1" where metadataToken == "imds-session":
            let credentials = ["AccessKeyId": awsAccessKey, "SecretAccessKey": awsSecretKey, "Token": awsSessionToken]
            return jsonResponse(credentials, status: .ok, headers: [:])
        case "/latest/api/token", "/latest/meta-data/placement/availability-zone",
            "/latest/meta-data/iam/security-credentials", "/latest/meta-data/iam/security-credentials/role-1":
            return Response(status: .unauthorized)
        default:
            return nil
        }
    }

    /// STS's token exchange: the fields Google's STS requires, and a subject token it knows, named in the issued
    /// token's kind (`sts:jwt`, `sts:aws:us-east-2`, with `+client` or `+project:ID`).
    private static func exchange(_ request: Request, form: [String: String], state: Locked<State>) -> Response {
        guard form["grant_type"] == "urn:ietf:params:oauth:grant-type:token-exchange",
            form["requested_token_type"] == "urn:ietf:params:oauth:token-type:access_token",
            let audience = form["audience"], [federationAudience, workforceAudience].contains(audience),
            let scope = form["scope"], scope.hasPrefix("https://www.googleapis.com/auth/"),
            let subject = form["subject_token"], let type = form["subject_token_type"]
        else { return jsonResponse(["error": "invalid_request"], status: .badRequest, headers: [:]) }
        var kind: String
        if type == "urn:ietf:params:aws:token-type:aws4_request" {
            guard let region = awsRegion(subject, audience: audience) else {
                return jsonResponse(["error": "invalid_grant"], status: .badRequest, headers: [:])
            }
            kind = "sts:aws:" + region
        } else {
            guard subject == subjectToken else {
                return jsonResponse(["error": "invalid_grant"], status: .badRequest, headers: [:])
            }
            kind = "sts:" + (type.split(separator: ":").last.map(String.init) ?? "")
        }
        if scope == "https://www.googleapis.com/auth/cloud-platform" { kind += "+cloud-platform" }
        if let header = request.headers[.authorization] {
            let expected = Data("\(federationClient.id):\(federationClient.secret)".utf8).base64EncodedString()
            guard header == "Basic " + expected else {
                return jsonResponse(["error": "invalid_client"], status: .unauthorized, headers: [:])
            }
            kind += "+client"
        }
        if let options = form["options"] {
            let object = try? JSONSerialization.jsonObject(with: Data(options.utf8)) as? [String: Any]
            kind += "+project:" + (object?["userProject"] as? String ?? "?")
        }
        let token = state.withLock { state in
            state.identityRequests.append(kind)
            let token = "ststok-\(state.identityRequests.count)"
            state.issued.insert(token)
            return token
        }
        return jsonResponse(
            [
                "access_token": token, "issued_token_type": "urn:ietf:params:oauth:token-type:access_token",
                "token_type": "Bearer", "expires_in": 3599,
            ], status: .ok, headers: [:])
    }

    /// STS's refresh-token grant for a workforce user: the client in HTTP Basic, a refresh token it gave, rotated.
    private static func refresh(_ request: Request, form: [String: String], state: Locked<State>) -> Response {
        let client = Data("\(federationClient.id):\(federationClient.secret)".utf8).base64EncodedString()
        let given = form["refresh_token"] ?? ""
        let answer: [String: Any]? = state.withLock { state in
            guard request.headers[.authorization] == "Basic " + client, form["grant_type"] == "refresh_token",
                state.workforceRefreshTokens.remove(given) != nil
            else { return nil }
            state.identityRequests.append("workforce:" + given)
            let token = "wftok-\(state.identityRequests.count)"
            state.issued.insert(token)
            let rotated = "wf-refresh-\(state.identityRequests.count)"
            state.workforceRefreshTokens.insert(rotated)
            return ["access_token": token, "expires_in": 3599, "refresh_token": rotated]
        }
        guard let answer else { return jsonResponse(["error": "invalid_grant"], status: .badRequest, headers: [:]) }
        return jsonResponse(answer, status: .ok, headers: [:])
    }

    /// The region of an `aws` subject token, when it is a `GetCallerIdentity` request signed by the role's
    /// credentials for `audience`, serialised as Google documents it.
    private static func awsRegion(_ subject: String, audience: String) -> String? {
        guard let json = subject.replacingOccurrences(of: "+", with: " ").removingPercentEncoding,
            let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
            object["method"] as? String == "POST", let url = object["url"] as? String,
            let list = object["headers"] as? [[String: String]]
        else { return nil }
        let headers = Dictionary(list.compactMap { item in item["key"].map { ($0, item["value"] ?? "") } }) { $1 }
        let region = URLComponents(string: url)?.host?.split(separator: ".").dropFirst().first.map(String.init)
        guard let region, url == "https://sts.\(region).amazonaws.com?Action=GetCallerIdentity&Version=2011-06-15",
            list.map({ $0["key"] ?? "" }) == list.map({ $0["key"] ?? "" }).sorted(),
            headers["Host"] == "sts.\(region).amazonaws.com", headers["X-Goog-Cloud-Target-Resource"] == audience,
            headers["X-Amz-Security-Token"] == awsSessionToken, headers["X-Amz-Date"]?.count == 16,
            let authorization = headers["Authorization"],
            authorization.hasPrefix("AWS4-HMAC-SHA256 Credential=\(awsAccessKey)/"),
            authorization.contains(
                "/\(region)/sts/aws4_request, SignedHeaders="
                    + "host;x-amz-date;x-amz-security-token;x-goog-cloud-target-resource, Signature=")
        else { return nil }
        return region
    }
}
