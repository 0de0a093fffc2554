import Crypto
import Foundation
import WebImage

/// `calc_hashsums`: digests of the source bytes, hexadecimal.
enum InfoHashsums {
    static let kinds: Set<String> = ["md5", "sha1", "sha256", "sha512"]

    /// The digest of `data` named `kind` (one of ``kinds``).
    static func digest(_ kind: String, of data: Data) -> String {
        switch kind {
        case "md5": Hex.string(Insecure.MD5.hash(data: data))
        case "sha1": Hex.string(Insecure.SHA1.hash(data: data))
        case "sha512": Hex.string(SHA512.hash(data: data))
        default: Hex.string(SHA256.hash(data: data))
        }
    }
}
