import Crypto
import Foundation
import WebImage

/// Decrypts objects written by the AWS S3 Encryption Client, as imgproxy's `IMGPROXY_S3_USE_DECRYPTION_CLIENT`
/// (the Go S3 Encryption Client v4 with a decrypt-only KMS keyring) reads them: the v2 format, with the envelope in
/// the object's metadata (`x-amz-key-v2`, `x-amz-iv`, `x-amz-cek-alg` = `AES/GCM/NoPadding`, `x-amz-wrap-alg` =
/// `kms+context`, `x-amz-matdesc`, `x-amz-tag-len` = `128`) or, when the object has none, in its instruction file
/// (`KEY.instruction`, the same names in JSON). The data key is unwrapped by KMS `Decrypt` under the encryption
/// context of `x-amz-matdesc`, then the body (ciphertext and its 16-byte tag) opened with AES-256-GCM.
///
/// Like imgproxy's client, it refuses the v1 formats (`x-amz-key`, `AES/CBC/PKCS5Padding`, `kms` wrapping: the
/// "legacy unauthenticated modes" are off), and an object with neither an envelope nor an instruction file is
/// missing (404). The data key is never logged or put in an error.
public struct S3DecryptionClient: Sendable {
    /// KMS.
    public let kms: KMSClient

    /// A client unwrapping data keys through `kms`, signed with the credentials of the ``S3Client`` that read the
    /// object (an assumed role's, when it has one).
    public init(kms: KMSClient) { self.kms = kms }

    /// `object` decrypted, reading its instruction file through `client` when its metadata holds no envelope.
    /// - Throws: `WebImageError`: `.badStatus` 404 without an envelope, `.corruptData` for an envelope or body that
    ///   does not decrypt, `.unsupportedFormat` for another format, and KMS's errors.
    public func decrypt(
        _ object: S3Object, bucket: String, key: String, client: S3Client
    ) async throws(WebImageError) -> S3Object {
        var envelope = object.metadata
        if envelope["x-amz-key-v2"] == nil, envelope["x-amz-key"] == nil {
            guard let instruction = try await client.get(bucket: bucket, key: key + ".instruction") else {
                throw WebImageError(
                    .badStatus, "\(key) has no encryption envelope nor instruction file", httpStatus: 404)
            }
            guard let json = try? JSONSerialization.jsonObject(with: instruction.data) as? [String: Any] else {
                throw WebImageError(.corruptData, "the instruction file of \(key) is not a JSON object")
            }
            envelope = json.compactMapValues { $0 as? String }
        }
        let data = try await open(
            object.data, envelope: envelope, key: key, credentials: try await client.signingCredentials())
        return S3Object(
            data: data, contentType: object.contentType, etag: object.etag, lastModified: object.lastModified,
            metadata: object.metadata, cacheControl: object.cacheControl, expires: object.expires)
    }

    /// `body` opened with the envelope `envelope`'s data key.
    func open(
        _ body: Data, envelope: [String: String], key: String, credentials: S3Credentials
    ) async throws(WebImageError) -> Data {
        guard let wrapped = envelope["x-amz-key-v2"] else {
            throw WebImageError(
                .unsupportedFormat, "\(key) is in the S3 Encryption Client's v1 format, which is not decrypted")
        }
        let algorithm = envelope["x-amz-cek-alg"] ?? ""
        guard algorithm == "AES/GCM/NoPadding" else {
            throw WebImageError(.unsupportedFormat, "\(key) is encrypted with \(algorithm), not AES/GCM/NoPadding")
        }
        guard envelope["x-amz-wrap-alg"] == "kms+context" else {
            throw WebImageError(
                .unsupportedFormat,
                "\(key)'s data key is wrapped with \(envelope["x-amz-wrap-alg"] ?? "nothing"), "
                    + "not kms+context")
        }
        guard (envelope["x-amz-tag-len"] ?? "128") == "128", let iv = envelope["x-amz-iv"].flatMap(Self.base64),
            iv.count == 12, let ciphertextKey = Self.base64(wrapped), body.count >= 16
        else { throw WebImageError(.corruptData, "the encryption envelope of \(key) is not valid") }
        let context: [String: String]
        do {
            context = try JSONDecoder().decode(
                [String: String].self, from: Data((envelope["x-amz-matdesc"] ?? "{}").utf8))
        } catch { throw WebImageError(.corruptData, "the x-amz-matdesc of \(key) is not a JSON object of strings") }
        guard context["aws:x-amz-cek-alg"] == algorithm else {
            throw WebImageError(.corruptData, "the x-amz-matdesc of \(key) does not name its content algorithm")
        }
        let dataKey = try await kms.decrypt(ciphertextKey, context: context, credentials: credentials)
        guard dataKey.count == 32 else { throw WebImageError(.corruptData, "the data key of \(key) is not 256 bits") }
        do {
            let box = try AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: iv), ciphertext: body.dropLast(16), tag: body.suffix(16))
            return try AES.GCM.open(box, using: SymmetricKey(data: dataKey))
        } catch { throw WebImageError(.corruptData, "\(key) does not decrypt with its data key") }
    }

    private static func base64(_ text: String) -> Data? { Data(base64Encoded: text) }
}
