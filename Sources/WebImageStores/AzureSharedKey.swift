import Crypto
import Foundation

/// Azure Storage's Shared Key authorisation (`Authorization: SharedKey ACCOUNT:SIGNATURE`): an HMAC-SHA256, keyed
/// with the decoded account key, of the request's canonical string: the verb, eleven standard headers (an empty
/// `Content-Length` for 0), the `x-ms-` headers lower-cased and sorted, and the resource (`/ACCOUNT/PATH`, then each
/// query parameter as `name:value` on its own line, sorted by name).
public struct AzureSharedKey: Sendable {
    /// The storage account's name.
    public let account: String
    private let key: SymmetricKey

    /// The signer of `account` with its base64 `key`.
    ///
    /// - Throws: ``CloudStoreError/Code/invalidKey`` when `key` is not base64 (the message never quotes it).
    public init(account: String, key: String) throws(CloudStoreError) {
        guard let bytes = Data(base64Encoded: key.trimmingCharacters(in: .whitespaces)), !bytes.isEmpty else {
            throw CloudStoreError(.invalidKey, "IMGPROXY_ABS_KEY is not a base64 account key")
        }
        self.account = account
        self.key = SymmetricKey(data: bytes)
    }

    /// The string signed for `method` on `path` (as sent, percent-encoded) with `query` (decoded) and `headers`.
    public func stringToSign(
        method: String, path: String, query: [(String, String)], headers: [(String, String)]
    ) -> String {
        var fields: [String: String] = [:]
        for (name, value) in headers { fields[name.lowercased()] = value.trimmingCharacters(in: .whitespaces) }
        let standard = [
            "content-encoding", "content-language", "content-length", "content-md5", "content-type", "date",
            "if-modified-since", "if-match", "if-none-match", "if-unmodified-since", "range",
        ].map { name in name == "content-length" && fields[name] == "0" ? "" : fields[name] ?? "" }
        let msHeaders = fields.filter { $0.key.hasPrefix("x-ms-") }.sorted { $0.key < $1.key }
            .map { "\($0.key):\($0.value)\n" }.joined()
        var resource = "/" + account + (path.isEmpty ? "/" : path)
        let parameters = Dictionary(grouping: query, by: { $0.0.lowercased() })
        for name in parameters.keys.sorted() {
            let values = parameters[name, default: []].map(\.1).sorted()
            resource += "\n\(name):" + values.joined(separator: ",")
        }
        return ([method.uppercased()] + standard).joined(separator: "\n") + "\n" + msHeaders + resource
    }

    /// The `Authorization` value of the request.
    public func authorization(
        method: String, path: String, query: [(String, String)], headers: [(String, String)]
    ) -> String {
        let text = stringToSign(method: method, path: path, query: query, headers: headers)
        let signature = HMAC<SHA256>.authenticationCode(for: Data(text.utf8), using: key)
        return "SharedKey \(account):" + Data(signature).base64EncodedString()
    }
}
