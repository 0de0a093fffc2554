import Crypto
import Foundation

/// Lowercase hexadecimal text of bytes and digests: the package's one hex helper (disk cache file names, result
/// keys, file ETags, S3 signatures and object names). `String(format:)` per byte costs microseconds on a hot path.
package enum Hex {
    /// `bytes` as lowercase hexadecimal, two digits a byte.
    package static func string<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var characters: [UInt8] = []
        characters.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            characters.append(digits[Int(byte >> 4)])
            characters.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: characters, as: UTF8.self)
    }

    /// The SHA-256 of `text`'s UTF-8 bytes, in hexadecimal.
    package static func sha256(_ text: String) -> String { string(SHA256.hash(data: Data(text.utf8))) }

    private static let digits = Array("0123456789abcdef".utf8)
}
