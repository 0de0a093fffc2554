import Foundation
import WebImage

/// The encryption envelope of an object written by the AWS S3 Encryption Client, read as the client's v4 reads it
/// (the "content metadata" of its specification): which format it is, where its data key and IV are, and how both
/// were made. Found in the object's metadata, or, when the metadata holds none of the formats, in its instruction
/// file (`KEY.instruction`, a JSON object of the same names).
///
/// - v1: `x-amz-key` and `x-amz-iv` (read only to refuse it).
/// - v2: `x-amz-key-v2`, `x-amz-iv`, `x-amz-cek-alg`, `x-amz-wrap-alg`, `x-amz-matdesc`, `x-amz-tag-len`.
/// - v3 (written by the v4 clients, with key commitment): `x-amz-3` (the wrapped data key), `x-amz-w` (the wrapping
///   algorithm, compressed: `12` is `kms+context`), `x-amz-t` (the KMS encryption context; `x-amz-m`, the material
///   description, for the other wrappings), `x-amz-c` (the content algorithm, `115`), `x-amz-d` (the key commitment)
///   and `x-amz-i` (the message id). With an instruction file, `x-amz-c`, `x-amz-d` and `x-amz-i` stay in the
///   object's metadata and must not be in the file.
///
/// An envelope with the keys of two formats (`x-amz-key`, `x-amz-key-v2`, `x-amz-3`) is refused, as the client
/// refuses it.
struct S3EncryptionEnvelope: Sendable, Hashable {
    /// The format of the envelope.
    enum Format: Sendable, Hashable {
        case v1, v2, v3
    }

    let format: Format
    /// The content algorithm: `AES/GCM/NoPadding` (v2) or `115` (v3's `ALG_AES_256_GCM_HKDF_SHA512_COMMIT_KEY`).
    let contentAlgorithm: String
    /// The wrapping algorithm, uncompressed (`kms+context`).
    let wrappingAlgorithm: String
    /// The envelope's own names and values (of the metadata, and of the instruction file when there is one).
    let values: [String: String]

    /// The format of `metadata` when it holds a whole envelope; `nil` when it holds none (then the instruction file
    /// holds it).
    /// - Throws: `.corruptData` when it holds the exclusive keys of two formats.
    static func format(of metadata: [String: String], key: String) throws(WebImageError) -> Format? {
        let exclusive = ["x-amz-key", "x-amz-key-v2", "x-amz-3"].filter { metadata[$0] != nil }
        guard exclusive.count <= 1 else {
            throw WebImageError(.corruptData, "the encryption envelope of \(key) mixes formats (\(exclusive))")
        }
        let hasIV = metadata["x-amz-iv"] != nil
        if hasIV && metadata["x-amz-key"] != nil { return .v1 }
        if hasIV && metadata["x-amz-key-v2"] != nil { return .v2 }
        if ["x-amz-3", "x-amz-d", "x-amz-i"].allSatisfy({ metadata[$0] != nil }) { return .v3 }
        return nil
    }

    /// The envelope of an object whose metadata is `metadata` and whose instruction file (when `metadata` holds no
    /// envelope) is `instruction`.
    /// - Throws: `.corruptData` for an envelope that is not one of the formats, or whose instruction file holds what
    ///   must be in the metadata.
    init(metadata: [String: String], instruction: [String: String]?, key: String) throws(WebImageError) {
        var values = metadata
        var format = try Self.format(of: metadata, key: key)
        if format == nil, let instruction {
            values = instruction
            if instruction["x-amz-3"] != nil {
                let misplaced = ["x-amz-c", "x-amz-d", "x-amz-i"].filter { instruction[$0] != nil }
                guard misplaced.isEmpty else {
                    throw WebImageError(
                        .corruptData, "the instruction file of \(key) holds \(misplaced), which belong in the metadata")
                }
                for name in ["x-amz-c", "x-amz-d", "x-amz-i"] { values[name] = metadata[name] }
            }
            format = try Self.format(of: values, key: key)
        }
        guard let format else {
            throw WebImageError(.corruptData, "\(key) has no S3 Encryption Client envelope of a known format")
        }
        let wrapping: String
        switch format {
        case .v1, .v2:
            wrapping = values["x-amz-wrap-alg"] ?? ""
            contentAlgorithm = values["x-amz-cek-alg"] ?? ""
        case .v3:
            let compressed = values["x-amz-w"] ?? ""
            wrapping = ["02": "AES/GCM", "12": "kms+context", "22": "RSA-OAEP-SHA1"][compressed] ?? compressed
            contentAlgorithm = values["x-amz-c"] ?? values["x-amz-cek-alg"] ?? ""
        }
        self.format = format
        self.wrappingAlgorithm = wrapping
        self.values = values
    }

    /// The wrapped data key (base64 of `x-amz-3` or `x-amz-key-v2`).
    var encryptedDataKey: Data? {
        (values["x-amz-3"] ?? values["x-amz-key-v2"]).flatMap { Data(base64Encoded: $0) }
    }

    /// The IV (v2, `x-amz-iv`) or the message id (v3, `x-amz-i`).
    var ivOrMessageID: Data? {
        (format == .v3 ? values["x-amz-i"] : values["x-amz-iv"]).flatMap { Data(base64Encoded: $0) }
    }

    /// The key commitment (v3, `x-amz-d`).
    var keyCommitment: Data? { values["x-amz-d"].flatMap { Data(base64Encoded: $0) } }

    /// The KMS encryption context as JSON: v3's `x-amz-t`, v2's `x-amz-matdesc`, `{}` when absent.
    var encryptionContext: String {
        (format == .v3 ? values["x-amz-t"] : values["x-amz-matdesc"]) ?? "{}"
    }

    /// The tag length in bits: v2's `x-amz-tag-len`, else 128.
    var tagLength: String { format == .v3 ? "128" : values["x-amz-tag-len"] ?? "128" }
}
