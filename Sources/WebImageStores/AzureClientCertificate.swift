import Crypto
import Foundation
import _CryptoExtras

/// A service principal's certificate (`AZURE_CLIENT_CERTIFICATE_PATH`): a PEM file with the certificate and its
/// unencrypted RSA private key, which signs the client assertions (RS256 JWTs with the certificate's SHA-1
/// thumbprint as `x5t`) that Microsoft Entra ID takes for a secret.
struct AzureClientCertificate: Sendable {
    /// The certificate's SHA-1 thumbprint in base64url, the assertion's `x5t`.
    let thumbprint: String
    /// The certificates of the file in base64, the assertion's `x5c`, when the chain is sent.
    let chain: [String]?
    private let key: _RSA.Signing.PrivateKey

    /// The certificate and key of the PEM file at `path`; with `sendsChain` (`AZURE_CLIENT_CERTIFICATE_CHAIN`), the
    /// file's certificates go with each assertion (subject name and issuer authentication).
    ///
    /// - Throws: ``CloudStoreError/Code/invalidKey`` for a file that cannot be read or lacks a certificate or an
    ///   unencrypted RSA key (never quoting the key).
    init(path: String, sendsChain: Bool = false) throws(CloudStoreError) {
        guard let data = FileManager.default.contents(atPath: path), data.count <= 1 << 20 else {
            throw CloudStoreError(.invalidKey, "AZURE_CLIENT_CERTIFICATE_PATH: cannot read \(path)")
        }
        let text = String(decoding: data, as: UTF8.self)
        var certificates: [String] = []
        var rest = Substring(text)
        while let found = Self.block("CERTIFICATE", in: String(rest)) {
            certificates.append(found.body)
            guard let end = rest.range(of: found.text) else { break }
            rest = rest[end.upperBound...]
        }
        guard let certificate = certificates.first.flatMap({ Data(base64Encoded: $0) }) else {
            throw CloudStoreError(.invalidKey, "AZURE_CLIENT_CERTIFICATE_PATH: \(path) holds no PEM certificate")
        }
        guard
            let pem = Self.block("PRIVATE KEY", in: text) ?? Self.block("RSA PRIVATE KEY", in: text),
            let key = try? _RSA.Signing.PrivateKey(pemRepresentation: pem.text)
        else {
            throw CloudStoreError(
                .invalidKey, "AZURE_CLIENT_CERTIFICATE_PATH: \(path) holds no unencrypted RSA private key")
        }
        thumbprint = GoogleServiceAccount.base64URL(Data(Insecure.SHA1.hash(data: certificate)))
        chain = sendsChain ? certificates : nil
        self.key = key
    }

    /// A client assertion for `audience` (the token endpoint) by `clientID`, valid for ten minutes from `date`.
    func assertion(clientID: String, audience: String, date: Date = Date()) throws(CloudStoreError) -> String {
        let now = Int(date.timeIntervalSince1970)
        var header: [String: Any] = ["alg": "RS256", "typ": "JWT", "x5t": thumbprint]
        if let chain { header["x5c"] = chain }
        let claims: [String: Any] = [
            "aud": audience, "iss": clientID, "sub": clientID, "jti": UUID().uuidString, "nbf": now, "iat": now,
            "exp": now + 600,
        ]
        guard let headerData = try? JSONSerialization.data(withJSONObject: header, options: .sortedKeys),
            let claimsData = try? JSONSerialization.data(withJSONObject: claims, options: .sortedKeys)
        else { throw CloudStoreError(.invalidKey, "the client assertion could not be written") }
        let input = GoogleServiceAccount.base64URL(headerData) + "." + GoogleServiceAccount.base64URL(claimsData)
        guard
            let signature = try? key.signature(
                for: SHA256.hash(data: Data(input.utf8)), padding: .insecurePKCS1v1_5)
        else { throw CloudStoreError(.invalidKey, "the client assertion could not be signed") }
        return input + "." + GoogleServiceAccount.base64URL(signature.rawRepresentation)
    }

    /// The first PEM block labelled `label` in `text`: the whole block and its base64 body.
    private static func block(_ label: String, in text: String) -> (text: String, body: String)? {
        let begin = "-----BEGIN \(label)-----"
        let end = "-----END \(label)-----"
        guard let start = text.range(of: begin), let stop = text.range(of: end, range: start.upperBound..<text.endIndex)
        else { return nil }
        let body = text[start.upperBound..<stop.lowerBound].filter { !$0.isWhitespace }
        return (String(text[start.lowerBound..<stop.upperBound]), String(body))
    }
}
