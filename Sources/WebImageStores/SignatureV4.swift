import Crypto
import Foundation
import WebImage

/// AWS Signature Version 4 for S3 requests, signed in the `Authorization` header; temporary credentials' session
/// token is sent as `X-Amz-Security-Token` and signed with the other headers.
///
/// Pure: the same method, path, query, headers, payload hash, date and credentials always give the same signature,
/// which is how it is tested against the examples AWS publishes. Paths are signed as S3 expects: each segment
/// percent-encoded once (every byte but `A-Z a-z 0-9 - . _ ~`), the slashes between segments kept.
public struct SignatureV4: Sendable {
    /// The credentials that sign.
    public let credentials: S3Credentials
    /// The region, e.g. `us-east-1`.
    public let region: String
    /// The service, `s3`.
    public let service: String

    /// The SHA-256 of an empty payload, in hex.
    public static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// A signer for `region` and `service`.
    public init(credentials: S3Credentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// The headers to add to a request so that it is signed: `x-amz-date`, `x-amz-content-sha256`,
    /// `x-amz-security-token` (with a session token) and `Authorization`. `headers` must include `host` (any case)
    /// and every other header to sign.
    ///
    /// - Parameters:
    ///   - method: the HTTP method (`GET`, `PUT`, …).
    ///   - path: the request path, not yet percent-encoded (`/bucket/key with spaces.jpg`).
    ///   - query: the query parameters, not yet encoded; order does not matter.
    ///   - headers: the headers to sign, `host` among them.
    ///   - payloadHash: the hex SHA-256 of the body (``emptyPayloadHash`` for none).
    ///   - date: the signing time.
    public func signedHeaders(
        method: String, path: String, query: [(String, String)] = [], headers: [(String, String)],
        payloadHash: String, date: Date
    ) -> [(String, String)] {
        let stamp = Self.timestamp(date)
        var all = headers.map { ($0.0.lowercased(), Self.trimmed($0.1)) }
        var added = [("x-amz-date", stamp), ("x-amz-content-sha256", payloadHash)]
        if let token = credentials.sessionToken { added.append(("x-amz-security-token", token)) }
        all += added
        let authorization = self.authorization(
            method: method, path: path, query: query, headers: all, payloadHash: payloadHash, timestamp: stamp)
        return added + [("Authorization", authorization)]
    }

    /// The `Authorization` header value for a request whose headers (lowercase names, including `x-amz-date` =
    /// `timestamp` and `host`) are all signed.
    func authorization(
        method: String, path: String, query: [(String, String)], headers: [(String, String)], payloadHash: String,
        timestamp: String
    ) -> String {
        let (canonical, signedNames) = Self.canonicalRequest(
            method: method, path: path, query: query, headers: headers, payloadHash: payloadHash)
        let day = String(timestamp.prefix(8))
        let scope = "\(day)/\(region)/\(service)/aws4_request"
        let toSign = ["AWS4-HMAC-SHA256", timestamp, scope, Hex.string(SHA256.hash(data: Data(canonical.utf8)))]
            .joined(separator: "\n")
        var key = SymmetricKey(data: Data("AWS4\(credentials.secretKey)".utf8))
        for part in [day, region, service, "aws4_request"] { key = SymmetricKey(data: Self.hmac(part, key)) }
        let signature = Hex.string(Self.hmac(toSign, key))
        return "AWS4-HMAC-SHA256 Credential=\(credentials.accessKey)/\(scope), SignedHeaders=\(signedNames), "
            + "Signature=\(signature)"
    }

    /// The canonical request of Signature Version 4 (and 4A), and the names of its signed headers joined by `;`:
    /// `headers` (names already lowercase, values trimmed) sorted by name, the path and the query encoded as S3 signs
    /// them.
    static func canonicalRequest(
        method: String, path: String, query: [(String, String)], headers: [(String, String)], payloadHash: String
    ) -> (request: String, signedNames: String) {
        let sorted = headers.sorted { $0.0 < $1.0 }
        let signedNames = sorted.map(\.0).joined(separator: ";")
        let request = [
            method, encodedPath(path), canonicalQuery(query), sorted.map { "\($0.0):\($0.1)\n" }.joined(),
            signedNames, payloadHash,
        ].joined(separator: "\n")
        return (request, signedNames)
    }

    /// `date` as `yyyyMMdd'T'HHmmss'Z'` in UTC.
    static func timestamp(_ date: Date) -> String {
        let components = Calendar(identifier: .gregorian).dateComponents(
            in: TimeZone(identifier: "UTC") ?? .current, from: date)
        let fields = [components.month, components.day, components.hour, components.minute, components.second]
            .map { String(format: "%02d", $0 ?? 0) }
        return String(format: "%04d", components.year ?? 0) + fields[0] + fields[1] + "T" + fields[2] + fields[3]
            + fields[4] + "Z"
    }

    /// Each segment of `path` percent-encoded, slashes kept.
    static func encodedPath(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : "/" + path
        return absolute.split(separator: "/", omittingEmptySubsequences: false).map { encoded(String($0)) }
            .joined(separator: "/")
    }

    /// Every byte but `A-Z a-z 0-9 - . _ ~` as `%XX` (uppercase hex).
    static func encoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result += String(format: "%%%02X", byte)
            }
        }
        return result
    }

    static func canonicalQuery(_ query: [(String, String)]) -> String {
        let pairs: [(name: String, value: String)] = query.map { (encoded($0.0), encoded($0.1)) }
        let sorted = pairs.sorted { $0.name == $1.name ? $0.value < $1.value : $0.name < $1.name }
        return sorted.map { $0.name + "=" + $0.value }.joined(separator: "&")
    }

    static func trimmed(_ value: String) -> String {
        value.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }

    private static func hmac(_ text: String, _ key: SymmetricKey) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: Data(text.utf8), using: key))
    }

    /// The SHA-256 of `data`.
    static func sha256(_ data: Data) -> [UInt8] { Array(SHA256.hash(data: data)) }
}
