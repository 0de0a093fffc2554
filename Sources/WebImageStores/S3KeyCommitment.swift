import Crypto
import Foundation
import WebImage

/// The key commitment of the S3 Encryption Client's `ALG_AES_256_GCM_HKDF_SHA512_COMMIT_KEY` (suite `0x0073`, `115`
/// in the metadata), which its v4 clients write by default: HKDF-SHA512, salted with the object's 28-byte message id
/// (`x-amz-i`), turns the data key into a 28-byte commitment (info `0x0073 || "COMMITKEY"`), which must equal the
/// stored one (`x-amz-d`), and into the 32-byte content key (info `0x0073 || "DERIVEKEY"`); the body is AES-256-GCM
/// under that key with an IV of twelve `0x01` bytes and the suite id `0x0073` as additional data.
///
/// So a data key can open only the objects it was committed to: a wrong commitment is an error before any
/// decryption, never plaintext.
enum S3KeyCommitment {
    /// The suite id, big-endian: the start of both HKDF infos and the GCM additional data.
    static let suiteID: [UInt8] = [0x00, 0x73]
    /// The message id's and the commitment's length in bytes (224 bits).
    static let length = 28

    /// The content key of `dataKey` for the object whose message id is `messageID`, once `commitment` is checked.
    /// - Throws: `WebImageError` `.corruptData` for a message id or commitment of the wrong length, or a commitment
    ///   that is not the data key's.
    static func contentKey(
        dataKey: Data, messageID: Data, commitment: Data, objectKey: String
    ) throws(WebImageError) -> SymmetricKey {
        guard messageID.count == length, commitment.count == length, dataKey.count == 32 else {
            throw WebImageError(.corruptData, "the key commitment envelope of \(objectKey) is not valid")
        }
        let pseudoRandomKey = HKDF<SHA512>.extract(inputKeyMaterial: SymmetricKey(data: dataKey), salt: messageID)
        let derived = HKDF<SHA512>.expand(
            pseudoRandomKey: pseudoRandomKey, info: Data(suiteID + Array("COMMITKEY".utf8)), outputByteCount: length)
        let matches = derived.withUnsafeBytes { derivedBytes in
            zip(derivedBytes, commitment).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
        }
        guard matches else {
            throw WebImageError(.corruptData, "\(objectKey)'s key commitment does not match its data key")
        }
        return HKDF<SHA512>.expand(
            pseudoRandomKey: pseudoRandomKey, info: Data(suiteID + Array("DERIVEKEY".utf8)), outputByteCount: 32)
    }

    /// `body` (ciphertext, then its 16-byte tag) opened with `contentKey`, the fixed IV and the suite id as
    /// additional data.
    static func open(_ body: Data, contentKey: SymmetricKey, objectKey: String) throws(WebImageError) -> Data {
        do {
            let box = try AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: Data(repeating: 1, count: 12)), ciphertext: body.dropLast(16),
                tag: body.suffix(16))
            return try AES.GCM.open(box, using: contentKey, authenticating: Data(suiteID))
        } catch { throw WebImageError(.corruptData, "\(objectKey) does not decrypt with its committed key") }
    }
}
