import Foundation
import WebImage

/// A client of KMS's `Decrypt` (JSON API, `TrentService.Decrypt`), as the S3 Encryption Client's "any key" KMS
/// keyring calls it: the ciphertext names its key, so no key id is sent.
public struct KMSClient: Sendable {
    private struct DecryptRequest: Encodable {
        var ciphertextBlob: String
        var encryptionContext: [String: String]?
        enum CodingKeys: String, CodingKey {
            case ciphertextBlob = "CiphertextBlob", encryptionContext = "EncryptionContext"
        }
    }

    private struct DecryptResponse: Decodable {
        var plaintext: String?
        enum CodingKeys: String, CodingKey { case plaintext = "Plaintext" }
    }

    /// The JSON client, whose sender's service is ``AWSService/kms``.
    public let json: AWSJSONClient

    /// A client posting through `sender`.
    public init(sender: AWSRequestSender) { json = AWSJSONClient(sender: sender, targetPrefix: "TrentService") }

    /// The plaintext of `ciphertext` under `context` (the encryption context it was encrypted with), signed with
    /// `credentials`.
    /// - Throws: `WebImageError`: the sender's, or `.invalidResponse` for an answer without a plaintext.
    public func decrypt(
        _ ciphertext: Data, context: [String: String], credentials: S3Credentials
    ) async throws(WebImageError) -> Data {
        let answer = try await json.call(
            "Decrypt",
            DecryptRequest(
                ciphertextBlob: ciphertext.base64EncodedString(), encryptionContext: context.isEmpty ? nil : context),
            credentials: credentials, as: DecryptResponse.self)
        guard let text = answer.plaintext, let plaintext = Data(base64Encoded: text) else {
            throw WebImageError(.invalidResponse, "kms Decrypt answered no plaintext")
        }
        return plaintext
    }
}
