import Crypto
import Foundation
import WebImage

/// Decrypts objects written by the AWS S3 Encryption Client, as imgproxy's `IMGPROXY_S3_USE_DECRYPTION_CLIENT`
/// (the Go S3 Encryption Client v4 with a decrypt-only KMS keyring, commitment policy
/// `FORBID_ENCRYPT_ALLOW_DECRYPT`) reads them, with the envelope (`S3EncryptionEnvelope`) in the object's metadata
/// or, when the object has none, in its instruction file (`KEY.instruction`):
/// - the v2 format (`x-amz-key-v2`, `x-amz-iv`, `x-amz-cek-alg` = `AES/GCM/NoPadding`, `x-amz-wrap-alg` =
///   `kms+context`, `x-amz-matdesc`, `x-amz-tag-len` = `128`): the body is AES-256-GCM under the data key;
/// - the v3 format of the v4 clients, with key commitment (`x-amz-3`, `x-amz-w` = `12`, `x-amz-t`, `x-amz-c` = `115`,
///   `x-amz-d`, `x-amz-i`): the content key is derived from the data key and checked against the commitment
///   (`S3KeyCommitment`).
///
/// The data key is unwrapped by KMS `Decrypt` under the encryption context (`x-amz-matdesc` or `x-amz-t`, its S3
/// encoding of non-ASCII characters undone by `S3MetadataText`), which must name the content algorithm
/// (`aws:x-amz-cek-alg`). Like imgproxy's client, it refuses the v1 formats (`x-amz-key`,
/// `AES/CBC/PKCS5Padding`, `kms` wrapping: the "legacy unauthenticated modes" are off), and an object with neither an
/// envelope nor an instruction file is missing (404). The data key is never logged or put in an error.
public struct S3DecryptionClient: Sendable {
    /// KMS.
    public let kms: KMSClient

    /// A client unwrapping data keys through `kms`, signed with the credentials of the ``S3Client`` that read the
    /// object (an assumed role's, when it has one).
    public init(kms: KMSClient) { self.kms = kms }

    /// `object` decrypted, reading its instruction file through `client` when its metadata holds no envelope.
    /// - Throws: `WebImageError`: `.badStatus` 404 without an envelope, `.corruptData` for an envelope or body that
    ///   does not decrypt (or a key commitment that does not match), `.unsupportedFormat` for another format, and
    ///   KMS's errors.
    public func decrypt(
        _ object: S3Object, bucket: String, key: String, client: S3Client
    ) async throws(WebImageError) -> S3Object {
        var instruction: [String: String]?
        if try S3EncryptionEnvelope.format(of: object.metadata, key: key) == nil {
            guard let file = try await client.get(bucket: bucket, key: key + ".instruction") else {
                throw WebImageError(
                    .badStatus, "\(key) has no encryption envelope nor instruction file", httpStatus: 404)
            }
            guard let json = try? JSONSerialization.jsonObject(with: file.data) as? [String: Any] else {
                throw WebImageError(.corruptData, "the instruction file of \(key) is not a JSON object")
            }
            instruction = json.compactMapValues { ($0 as? String) ?? ($0 as? NSNumber)?.stringValue }
        }
        let envelope = try S3EncryptionEnvelope(metadata: object.metadata, instruction: instruction, key: key)
        let data = try await open(
            object.data, envelope: envelope, key: key, credentials: try await client.signingCredentials())
        return S3Object(
            data: data, contentType: object.contentType, etag: object.etag, lastModified: object.lastModified,
            metadata: object.metadata, cacheControl: object.cacheControl, expires: object.expires)
    }

    /// `body` opened with the envelope `envelope`'s data key.
    func open(
        _ body: Data, envelope: S3EncryptionEnvelope, key: String, credentials: S3Credentials
    ) async throws(WebImageError) -> Data {
        guard envelope.format != .v1 else {
            throw WebImageError(
                .unsupportedFormat, "\(key) is in the S3 Encryption Client's v1 format, which is not decrypted")
        }
        let algorithm = envelope.contentAlgorithm
        let committing = algorithm == "115"
        guard committing || algorithm == "AES/GCM/NoPadding" else {
            throw WebImageError(
                .unsupportedFormat, "\(key) is encrypted with \(algorithm), not AES/GCM/NoPadding nor 115")
        }
        guard envelope.wrappingAlgorithm == "kms+context" else {
            throw WebImageError(
                .unsupportedFormat,
                "\(key)'s data key is wrapped with \(envelope.wrappingAlgorithm), not kms+context")
        }
        guard envelope.tagLength == "128", let iv = envelope.ivOrMessageID,
            iv.count == (committing ? S3KeyCommitment.length : 12), let ciphertextKey = envelope.encryptedDataKey,
            body.count >= 16
        else { throw WebImageError(.corruptData, "the encryption envelope of \(key) is not valid") }
        let context: [String: String]
        let contextText = try S3MetadataText.decoded(envelope.encryptionContext)
        do {
            context = try JSONDecoder().decode([String: String].self, from: Data(contextText.utf8))
        } catch {
            throw WebImageError(.corruptData, "the encryption context of \(key) is not a JSON object of strings")
        }
        guard context["aws:x-amz-cek-alg"] == algorithm else {
            throw WebImageError(.corruptData, "the encryption context of \(key) does not name its content algorithm")
        }
        let dataKey = try await kms.decrypt(ciphertextKey, context: context, credentials: credentials)
        guard dataKey.count == 32 else { throw WebImageError(.corruptData, "the data key of \(key) is not 256 bits") }
        if committing {
            guard let commitment = envelope.keyCommitment else {
                throw WebImageError(.corruptData, "the key commitment of \(key) is not valid base64")
            }
            let contentKey = try S3KeyCommitment.contentKey(
                dataKey: dataKey, messageID: iv, commitment: commitment, objectKey: key)
            return try S3KeyCommitment.open(body, contentKey: contentKey, objectKey: key)
        }
        do {
            let box = try AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: iv), ciphertext: body.dropLast(16), tag: body.suffix(16))
            return try AES.GCM.open(box, using: SymmetricKey(data: dataKey))
        } catch { throw WebImageError(.corruptData, "\(key) does not decrypt with its data key") }
    }
}
