import Crypto
import Foundation
import WebImage

/// AWS Signature Version 4A (`AWS4-ECDSA-P256-SHA256`), which S3 Multi-Region Access Points require: the request is
/// signed for a set of regions (`X-Amz-Region-Set`, `*` for any) with an ECDSA P-256 key derived from the secret
/// access key, instead of an HMAC key bound to one region.
///
/// The canonical request is Signature Version 4's (``SignatureV4``) with `x-amz-region-set` among the signed
/// headers; the credential scope has no region (`DAY/SERVICE/aws4_request`); the signature is the DER ECDSA signature
/// of the string to sign's SHA-256, in hex. The key is derived as the AWS SDKs derive it (``signingKey(accessKey:secretKey:)``)
/// and checked against the public key AWS's Signature Version 4A test suite publishes.
public struct SignatureV4A: Sendable {
    /// The credentials that sign.
    public let credentials: S3Credentials
    /// The regions the signature is valid in; `["*"]` for all, as a Multi-Region Access Point is signed.
    public let regionSet: [String]
    /// The service, `s3`.
    public let service: String

    /// The algorithm's name, in the string to sign, the `Authorization` header and the key derivation's label.
    static let algorithm = "AWS4-ECDSA-P256-SHA256"

    /// A signer for `regionSet` and `service`.
    public init(credentials: S3Credentials, regionSet: [String] = ["*"], service: String = "s3") {
        self.credentials = credentials
        self.regionSet = regionSet
        self.service = service
    }

    /// The headers to add to a request so that it is signed: `x-amz-date`, `x-amz-content-sha256`,
    /// `x-amz-region-set`, `x-amz-security-token` (with a session token) and `Authorization`. The parameters are
    /// those of ``SignatureV4/signedHeaders(method:path:query:headers:payloadHash:date:)``.
    /// - Throws: `WebImageError` `.invalidArgument` when no signing key can be derived from the credentials (a
    ///   chance below 2⁻⁸⁰⁰⁰, as the SDKs give up too).
    public func signedHeaders(
        method: String, path: String, query: [(String, String)] = [], headers: [(String, String)],
        payloadHash: String, date: Date
    ) throws(WebImageError) -> [(String, String)] {
        let stamp = SignatureV4.timestamp(date)
        var added = [
            ("x-amz-date", stamp), ("x-amz-content-sha256", payloadHash),
            ("x-amz-region-set", regionSet.joined(separator: ",")),
        ]
        if let token = credentials.sessionToken { added.append(("x-amz-security-token", token)) }
        let all = headers.map { ($0.0.lowercased(), SignatureV4.trimmed($0.1)) } + added
        let (toSign, scope, signedNames) = stringToSign(
            method: method, path: path, query: query, headers: all, payloadHash: payloadHash, timestamp: stamp)
        let key = try Self.signingKey(accessKey: credentials.accessKey, secretKey: credentials.secretKey)
        let signature: P256.Signing.ECDSASignature
        do { signature = try key.signature(for: Data(toSign.utf8)) } catch {
            throw WebImageError(.invalidArgument, "Signature Version 4A: ECDSA signing failed")
        }
        let authorization =
            "\(Self.algorithm) Credential=\(credentials.accessKey)/\(scope), SignedHeaders=\(signedNames), "
            + "Signature=\(Hex.string(signature.derRepresentation))"
        return added + [("Authorization", authorization)]
    }

    /// The string to sign of a request whose headers (lowercase names, trimmed values, `x-amz-date` = `timestamp`,
    /// `x-amz-region-set` and `host` among them) are all signed, its credential scope and its signed header names.
    func stringToSign(
        method: String, path: String, query: [(String, String)], headers: [(String, String)], payloadHash: String,
        timestamp: String
    ) -> (text: String, scope: String, signedNames: String) {
        let (canonical, signedNames) = SignatureV4.canonicalRequest(
            method: method, path: path, query: query, headers: headers, payloadHash: payloadHash)
        let scope = "\(timestamp.prefix(8))/\(service)/aws4_request"
        let text = [Self.algorithm, timestamp, scope, Hex.string(SHA256.hash(data: Data(canonical.utf8)))]
            .joined(separator: "\n")
        return (text, scope, signedNames)
    }

    /// The order of P-256 minus 2, big-endian: a derived candidate above it is skipped.
    private static let orderMinusTwo: [UInt8] = [
        0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x4F,
    ]

    /// The ECDSA P-256 key of an access key and its secret, as the AWS SDKs derive it: NIST SP 800-108's KDF in
    /// counter mode with HMAC-SHA256 keyed by `"AWS4A" + secretKey`, over `0x00000001 || "AWS4-ECDSA-P256-SHA256" ||
    /// 0x00 || accessKey || counter || 0x00000100` (256 bits asked for); the first candidate `c` (counter 1, 2, …
    /// 254) not above `n - 2` gives the private key `c + 1`, which is `1 + (c mod (n - 1))` for such a `c`. Compared
    /// and incremented in constant time, as the key is secret.
    public static func signingKey(
        accessKey: String, secretKey: String
    ) throws(WebImageError) -> P256.Signing.PrivateKey {
        let hmacKey = SymmetricKey(data: Data("AWS4A\(secretKey)".utf8))
        for counter in UInt8(1)...254 {
            let input =
                [0, 0, 0, 1] + Array(algorithm.utf8) + [0] + Array(accessKey.utf8) + [counter] + [0, 0, 1, 0]
            var candidate = Array(HMAC<SHA256>.authenticationCode(for: input, using: hmacKey))
            guard !isGreater(candidate, than: orderMinusTwo) else { continue }
            var carry: UInt16 = 1
            for index in candidate.indices.reversed() {
                let sum = UInt16(candidate[index]) + carry
                candidate[index] = UInt8(truncatingIfNeeded: sum)
                carry = sum >> 8
            }
            do { return try P256.Signing.PrivateKey(rawRepresentation: candidate) } catch { break }
        }
        throw WebImageError(
            .invalidArgument, "no Signature Version 4A key can be derived for the access key \(accessKey)")
    }

    /// Whether the big-endian number `left` is greater than `right`, of the same length, in constant time.
    static func isGreater(_ left: [UInt8], than right: [UInt8]) -> Bool {
        var greater: Int32 = 0
        var equal: Int32 = 1
        for (leftByte, rightByte) in zip(left, right) {
            let (leftDigit, rightDigit) = (Int32(leftByte), Int32(rightByte))
            greater |= ((rightDigit - leftDigit) >> 31) & 1 & equal
            equal &= (((leftDigit ^ rightDigit) - 1) >> 31) & 1
        }
        return greater == 1
    }
}
