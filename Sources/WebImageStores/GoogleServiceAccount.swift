import Crypto
import Foundation
import _CryptoExtras

/// A Google service-account key (the JSON file of `IMGPROXY_GCS_KEY` and `IMGPROXY_ENV_GCP_KEY`): who signs, with
/// which RSA key, and where its signed assertions are exchanged for access tokens (OAuth 2.0's JWT bearer grant).
/// Only keys of type `service_account` are accepted, as imgproxy accepts them.
public struct GoogleServiceAccount: Sendable, CustomStringConvertible {
    /// The service account's e-mail address, the assertion's issuer.
    public let clientEmail: String
    /// Where assertions are exchanged for tokens (`https://oauth2.googleapis.com/token`).
    public let tokenURI: URL
    /// The key's id, the assertion's `kid`, when the file names one.
    public let privateKeyID: String?
    /// The project of the key, when the file names one.
    public let projectID: String?
    private let privateKey: _RSA.Signing.PrivateKey

    /// The key of the JSON text `json`.
    ///
    /// - Throws: ``CloudStoreError/Code/invalidKey`` for text that is not a service-account key with a PEM RSA
    ///   private key, an e-mail and an `http(s)` token URI (the message never quotes the key).
    public init(json: String) throws(CloudStoreError) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
            throw CloudStoreError(.invalidKey, "the service-account key is not a JSON object")
        }
        guard object["type"] as? String == "service_account" else {
            throw CloudStoreError(
                .invalidKey, "the key is not a service-account key (its type must be service_account)")
        }
        guard let email = object["client_email"] as? String, !email.isEmpty else {
            throw CloudStoreError(.invalidKey, "the service-account key has no client_email")
        }
        let uri = (object["token_uri"] as? String) ?? "https://oauth2.googleapis.com/token"
        guard let tokenURI = URL(string: uri), ["http", "https"].contains(tokenURI.scheme?.lowercased() ?? ""),
            tokenURI.host?.isEmpty == false
        else { throw CloudStoreError(.invalidKey, "the service-account key's token_uri is not an http(s) URL") }
        guard let pem = object["private_key"] as? String,
            let key = try? _RSA.Signing.PrivateKey(pemRepresentation: pem)
        else {
            throw CloudStoreError(
                .invalidKey, "the service-account key's private_key is not a PEM RSA key of 2048 bits or more")
        }
        clientEmail = email
        self.tokenURI = tokenURI
        privateKeyID = object["private_key_id"] as? String
        projectID = object["project_id"] as? String
        privateKey = key
    }

    /// The account's e-mail and key id; never the key.
    public var description: String {
        "service account \(clientEmail)" + (privateKeyID.map { " (key \($0))" } ?? "")
    }

    /// A signed JWT (RS256) asserting `scope` for an hour from `date`, for ``tokenURI``.
    public func assertion(scope: String, date: Date = Date()) throws(CloudStoreError) -> String {
        let issued = Int(date.timeIntervalSince1970)
        var header: [String: Any] = ["alg": "RS256", "typ": "JWT"]
        if let privateKeyID { header["kid"] = privateKeyID }
        let claims: [String: Any] = [
            "iss": clientEmail, "scope": scope, "aud": tokenURI.absoluteString, "iat": issued, "exp": issued + 3600,
        ]
        guard let headerData = try? JSONSerialization.data(withJSONObject: header, options: .sortedKeys),
            let claimsData = try? JSONSerialization.data(withJSONObject: claims, options: .sortedKeys)
        else { throw CloudStoreError(.invalidKey, "the assertion could not be written") }
        let input = Self.base64URL(headerData) + "." + Self.base64URL(claimsData)
        guard
            let signature = try? privateKey.signature(
                for: SHA256.hash(data: Data(input.utf8)), padding: .insecurePKCS1v1_5)
        else { throw CloudStoreError(.invalidKey, "the assertion could not be signed with the service-account key") }
        return input + "." + Self.base64URL(signature.rawRepresentation)
    }

    /// `data` in unpadded base64url, as JWTs write it.
    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
