import Crypto
import Foundation

/// Signature Version 4A checked from a request as received, written apart from the package's `SignatureV4A` (from
/// the description of the algorithm in AWS's SDKs and its published test suite): the public key is derived here from
/// the secret, then the DER ECDSA signature verified over the string to sign rebuilt from the request.
enum FakeAWSSignatureV4A {
    /// Who signed a request, for which service and regions.
    struct Signer: Sendable {
        var accessKey: String
        var service: String
        var regionSet: String
    }

    /// The public key of `accessKey` and `secret`: HMAC-SHA256 (key `AWS4A` + secret) of the fixed input with a
    /// counter from 1, the first result that is at most n - 2 (compared as fixed-width hex), plus one.
    static func publicKey(accessKey: String, secret: String) -> P256.Signing.PublicKey? {
        let orderMinusTwo = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc63254f"
        for counter in 1...254 {
            var input = Data([0, 0, 0, 1])
            input.append(contentsOf: "AWS4-ECDSA-P256-SHA256".utf8)
            input.append(0)
            input.append(contentsOf: accessKey.utf8)
            input.append(UInt8(counter))
            input.append(contentsOf: [0, 0, 1, 0])
            let mac = HMAC<SHA256>.authenticationCode(
                for: input, using: SymmetricKey(data: Data("AWS4A\(secret)".utf8)))
            var bytes = Array(mac)
            if FakeAWSSignature.hex(bytes) > orderMinusTwo { continue }
            var index = bytes.count - 1
            while index >= 0 {
                bytes[index] &+= 1
                if bytes[index] != 0 { break }
                index -= 1
            }
            return try? P256.Signing.PrivateKey(rawRepresentation: bytes).publicKey
        }
        return nil
    }

    /// The string to sign of a request: the algorithm, `date`, the scope and the canonical request's SHA-256.
    static func stringToSign(
        method: String, path: String, query: String, headers: [(String, String)], signedHeaders: String,
        bodyHash: String, date: String, scope: String
    ) -> String? {
        func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name }?.1 }
        var canonicalHeaders = ""
        for name in signedHeaders.split(separator: ";").map(String.init) {
            guard let value = header(name) else { return nil }
            canonicalHeaders += name + ":" + value.trimmingCharacters(in: .whitespaces) + "\n"
        }
        let sortedQuery = query.split(separator: "&").map(String.init).sorted().joined(separator: "&")
        let canonical = [method, path, sortedQuery, canonicalHeaders, signedHeaders, bodyHash]
            .joined(separator: "\n")
        return [
            "AWS4-ECDSA-P256-SHA256", date, scope, FakeAWSSignature.hex(Array(SHA256.hash(data: Data(canonical.utf8)))),
        ]
        .joined(separator: "\n")
    }

    /// The signer when `Authorization` holds a valid Signature Version 4A of this request by a key of `secrets`, with
    /// `x-amz-region-set` signed; else `nil`. `path` is the path as received (percent-encoded), `query` the raw query.
    static func verify(
        method: String, path: String, query: String, headers: [(String, String)], body: Data,
        secrets: [String: String]
    ) -> Signer? {
        func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name }?.1 }
        let prefix = "AWS4-ECDSA-P256-SHA256 "
        guard let authorization = header("authorization"), authorization.hasPrefix(prefix),
            let date = header("x-amz-date"), let regionSet = header("x-amz-region-set")
        else { return nil }
        var fields: [String: String] = [:]
        for part in authorization.dropFirst(prefix.count).split(separator: ",") {
            let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1).map(String.init)
            if pair.count == 2 { fields[pair[0]] = pair[1] }
        }
        guard let credential = fields["Credential"], let signedHeaders = fields["SignedHeaders"],
            let signatureHex = fields["Signature"]
        else { return nil }
        let scope = credential.split(separator: "/").map(String.init)
        guard scope.count == 4, scope[3] == "aws4_request", let secret = secrets[scope[0]], date.hasPrefix(scope[1])
        else { return nil }
        let names = signedHeaders.split(separator: ";").map(String.init)
        guard names.contains("host"), names.contains("x-amz-region-set"), names == names.sorted() else { return nil }
        let bodyHash = FakeAWSSignature.hex(Array(SHA256.hash(data: body)))
        if let claimed = header("x-amz-content-sha256"), claimed != bodyHash { return nil }
        guard
            let toSign = stringToSign(
                method: method, path: path, query: query, headers: headers, signedHeaders: signedHeaders,
                bodyHash: bodyHash, date: date, scope: scope[1...3].joined(separator: "/")),
            let der = bytes(hex: signatureHex),
            let signature = try? P256.Signing.ECDSASignature(derRepresentation: der),
            let key = publicKey(accessKey: scope[0], secret: secret),
            key.isValidSignature(signature, for: Data(toSign.utf8))
        else { return nil }
        return Signer(accessKey: scope[0], service: scope[2], regionSet: regionSet)
    }

    /// The bytes of an even-length hex string, `nil` for anything else.
    static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var result: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else {
                return nil
            }
            result.append(byte)
        }
        return result
    }
}
