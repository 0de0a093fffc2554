import Crypto
import Foundation
import WebImage

/// The typed identity of one result: the SHA-256 of every option that changes it (from the option table, through
/// ``ProcessingOptions/cacheIdentity``), its source and its format as the request decides it (``FormatRequest``:
/// one format, or one for a still and one for an animated source).
///
/// Equal and hashed by the digest alone, so the memory tier and the run merger compare 32 bytes, never the texts.
/// The texts stay for what names a result outside this node: the shared tier
/// (`results/<sha256(source)>/<sha256(identity)>`) and a purge (by source).
struct ResultKey: Sendable, Hashable {
    /// The digest as four words.
    private let words: (UInt64, UInt64, UInt64, UInt64)
    /// The normalised options, the source and the format, joined (never the signature).
    let identity: String
    /// The source URL as the request gave it.
    let source: String
    /// The digest in hexadecimal: the name of the result in the disk tier.
    let hex: String

    init(options: ProcessingOptions, source: String, format: FormatRequest) {
        identity = [options.cacheIdentity, source, format.identity].joined(separator: "|")
        self.source = source
        let digest = Array(SHA256.hash(data: Data(identity.utf8)))
        hex = Hex.string(digest)
        func word(_ offset: Int) -> UInt64 { digest[offset..<offset + 8].reduce(0) { $0 << 8 | UInt64($1) } }
        words = (word(0), word(8), word(16), word(24))
    }

    static func == (lhs: ResultKey, rhs: ResultKey) -> Bool {
        lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2
            && lhs.words.3 == rhs.words.3
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
    }
}
