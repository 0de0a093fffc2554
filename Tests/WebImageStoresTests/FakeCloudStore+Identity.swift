import Crypto
import Foundation
import Hummingbird
import WebImage
import _CryptoExtras

/// The credential sources of Google's and Azure's default chains, in the fake: GCE's metadata server, Google's
/// refresh-token grant, Microsoft Entra ID's client-credentials grant (secret, certificate assertion verified with
/// the certificate's key and thumbprint, federated token), App Service's managed identity endpoint and IMDS. Each
/// checks what the real one checks (headers, api-version, resource or scope) and issues tokens the stores accept.
extension FakeCloudStore {
    static let azureTenant = "tenant-1"
    static let azureClientID = "client-1"
    static let azureClientSecret = "client-secret-1"
    static let federatedToken = "federated.jwt.token"
    static let identityHeader = "identity-header-1"
    static let googleUser = ["client_id": "gclient", "client_secret": "gsecret", "refresh_token": "refresh-1"]

    /// An `authorized_user` file whose token URI is this server's `/token`.
    func authorizedUserKey() -> String {
        var object: [String: Any] = Self.googleUser
        object["type"] = "authorized_user"
        object["token_uri"] = base + "/token"
        let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// The answer of a credential source, or `nil` for another path.
    static func identity(_ request: Request, path: String, body: Data, state: Locked<State>) -> Response? {
        let parameters = Self.query(request.uri.query ?? "")
        let form = Self.query(String(decoding: body, as: UTF8.self))
        switch path {
        case "/computeMetadata/v1/instance/service-accounts/default/token":
            guard request.headers[HTTPFields.Element.Name("Metadata-Flavor")!] == "Google",
                parameters["scopes"]?.hasPrefix("https://www.googleapis.com/auth/") == true
            else { return Response(status: .forbidden) }
            return issue("gce", state: state, fields: ["expires_in": 3599, "token_type": "Bearer"])
        case "/token" where form["grant_type"] == "refresh_token":
            guard googleUser.allSatisfy({ form[$0.key] == $0.value }) else {
                return jsonResponse(["error": "invalid_grant"], status: .badRequest, headers: [:])
            }
            return issue("refresh", state: state, fields: ["expires_in": 3599, "token_type": "Bearer"])
        case "/aad/\(azureTenant)/oauth2/v2.0/token":
            guard form["client_id"] == azureClientID, form["grant_type"] == "client_credentials",
                form["scope"] == "https://storage.azure.com/.default",
                let kind = entraCredential(form, state: state)
            else { return jsonResponse(["error": "invalid_client"], status: .unauthorized, headers: [:]) }
            return issue(kind, state: state, fields: ["expires_in": 3599, "token_type": "Bearer"])
        case "/msi/token":
            guard request.headers[HTTPFields.Element.Name("X-IDENTITY-HEADER")!] == identityHeader,
                parameters["api-version"] == "2019-08-01", parameters["resource"] == "https://storage.azure.com"
            else { return Response(status: .badRequest) }
            let expiresOn = String(Int(Date().timeIntervalSince1970) + 3600)
            return issue("appservice", state: state, fields: ["expires_on": expiresOn, "token_type": "Bearer"])
        case "/metadata/identity/oauth2/token":
            guard request.headers[HTTPFields.Element.Name("Metadata")!] == "true",
                parameters["api-version"] == "2018-02-01", parameters["resource"] == "https://storage.azure.com"
            else { return Response(status: .badRequest) }
            return issue(
                "imds" + (parameters["client_id"].map { ":" + $0 } ?? ""), state: state, fields: ["expires_in": "3599"])
        default:
            return nil
        }
    }

    /// Which Entra ID credential the form carries (`secret`, `workload`, `certificate`), when it is valid.
    private static func entraCredential(_ form: [String: String], state: Locked<State>) -> String? {
        if let secret = form["client_secret"] { return secret == azureClientSecret ? "secret" : nil }
        guard form["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
            let assertion = form["client_assertion"]
        else { return nil }
        if assertion == federatedToken { return "workload" }
        let (key, thumbprint, base) = state.withLock { ($0.certificateKey, $0.certificateThumbprint, $0.base) }
        let parts = assertion.split(separator: ".").map(String.init)
        guard parts.count == 3, let key, let publicKey = try? _RSA.Signing.PublicKey(derRepresentation: key),
            let headerData = base64URLData(parts[0]), let claimsData = base64URLData(parts[1]),
            let signature = base64URLData(parts[2]),
            let header = try? JSONSerialization.jsonObject(with: headerData) as? [String: Any],
            let claims = try? JSONSerialization.jsonObject(with: claimsData) as? [String: Any],
            header["x5t"] as? String == thumbprint, header["alg"] as? String == "RS256",
            claims["aud"] as? String == base + "/aad/\(azureTenant)/oauth2/v2.0/token",
            claims["iss"] as? String == azureClientID, claims["sub"] as? String == azureClientID,
            publicKey.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature),
                for: SHA256.hash(data: Data((parts[0] + "." + parts[1]).utf8)), padding: .insecurePKCS1v1_5)
        else { return nil }
        guard let chain = header["x5c"] else { return "certificate" }
        // The chain's first certificate is the one whose thumbprint is `x5t`.
        guard let first = (chain as? [String])?.first.flatMap({ Data(base64Encoded: $0) }),
            base64URL(Data(Insecure.SHA1.hash(data: first))) == thumbprint
        else { return nil }
        return "certificate+chain"
    }

    /// A new token for the credential source `kind`, counted.
    private static func issue(_ kind: String, state: Locked<State>, fields: [String: Any]) -> Response {
        let token = state.withLock { state in
            state.identityRequests.append(kind)
            let token = "idtok-\(state.identityRequests.count)"
            state.issued.insert(token)
            return token
        }
        var object = fields
        object["access_token"] = token
        return jsonResponse(object, status: .ok, headers: [:])
    }

    /// Whether an Azure request carries a token this server issued, or none for a public container.
    static func azureBearer(_ request: Request, state: Locked<State>) -> Bool {
        guard let header = request.headers[.authorization] else { return state.withLock { $0.azureAnonymous } }
        return header.hasPrefix("Bearer ") && state.withLock { $0.issued.contains(String(header.dropFirst(7))) }
    }

    private static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private static func base64URLData(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
