import Crypto
import Foundation

/// Signature Version 4 checked from a request as received, written apart from the package's `SignatureV4` (from
/// AWS's description of the algorithm) so that a mistake there is not repeated here.
enum FakeAWSSignature {
    /// Who signed a request, for which service and region.
    struct Signer: Sendable {
        var accessKey: String
        var service: String
        var region: String
    }

    /// The signer when `Authorization` holds a valid signature of this request by a key of `secrets`, else `nil`.
    /// `path` is the path as received (already percent-encoded), `query` the raw query.
    static func verify(
        method: String, path: String, query: String, headers: [(String, String)], body: Data,
        secrets: [String: String]
    ) -> Signer? {
        func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name }?.1 }
        guard let authorization = header("authorization"), authorization.hasPrefix("AWS4-HMAC-SHA256 "),
            let date = header("x-amz-date")
        else { return nil }
        var fields: [String: String] = [:]
        for part in authorization.dropFirst("AWS4-HMAC-SHA256 ".count).split(separator: ",") {
            let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1).map(String.init)
            if pair.count == 2 { fields[pair[0]] = pair[1] }
        }
        guard let credential = fields["Credential"], let signedHeaders = fields["SignedHeaders"],
            let signature = fields["Signature"]
        else { return nil }
        let scope = credential.split(separator: "/").map(String.init)
        guard scope.count == 5, scope[4] == "aws4_request", let secret = secrets[scope[0]],
            date.hasPrefix(scope[1])
        else { return nil }
        let names = signedHeaders.split(separator: ";").map(String.init)
        guard names.contains("host"), names == names.sorted() else { return nil }
        var canonicalHeaders = ""
        for name in names {
            guard let value = header(name) else { return nil }
            canonicalHeaders += name + ":" + value.trimmingCharacters(in: .whitespaces) + "\n"
        }
        let bodyHash = hex(Array(SHA256.hash(data: body)))
        if let claimed = header("x-amz-content-sha256"), claimed != bodyHash { return nil }
        let sortedQuery = query.split(separator: "&").map(String.init).sorted().joined(separator: "&")
        let canonical = [method, path, sortedQuery, canonicalHeaders, signedHeaders, bodyHash].joined(separator: "\n")
        let toSign = [
            "AWS4-HMAC-SHA256", date, scope[1...4].joined(separator: "/"),
            hex(Array(SHA256.hash(data: Data(canonical.utf8)))),
        ].joined(separator: "\n")
        var key = Data("AWS4\(secret)".utf8)
        for part in scope[1...4] {
            key = Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: SymmetricKey(data: key)))
        }
        let expected = hex(
            Array(HMAC<SHA256>.authenticationCode(for: Data(toSign.utf8), using: SymmetricKey(data: key))))
        guard expected == signature else { return nil }
        return Signer(accessKey: scope[0], service: scope[3], region: scope[2])
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
}
