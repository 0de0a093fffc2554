import Crypto

/// What names one result: the key of the node's own caches, and the source and identity that name it in the shared
/// tier (`results/<sha256(source)>/<sha256(identity)>`) and in a purge.
struct ResultID: Sendable, Hashable {
    /// The normalised options, the source and the chosen format, joined (never the signature).
    let identity: String
    /// The source URL as the request gave it.
    let source: String
    /// The SHA-256 of ``identity`` in hex: the ETag's source.
    let digest: String

    init(identity: String, source: String) {
        self.identity = identity
        self.source = source
        digest = Self.hex(SHA256.hash(data: Array(identity.utf8)))
    }

    /// The key in the node's memory and disk caches.
    var key: String { "result:" + digest }

    /// Lowercase hexadecimal of a digest (`String(format:)` per byte costs microseconds on the hit path).
    static func hex(_ digest: SHA256.Digest) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var characters: [UInt8] = []
        characters.reserveCapacity(SHA256.Digest.byteCount * 2)
        for byte in digest {
            characters.append(digits[Int(byte >> 4)])
            characters.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: characters, as: UTF8.self)
    }
}
