import Crypto
import Foundation

/// imgproxy's URL signature: URL-safe base64 (no padding) of HMAC-SHA256(key, salt + path), truncated to
/// ``signatureSize`` bytes.
///
/// As imgproxy, it holds several key and salt pairs (`IMGPROXY_KEY` and `IMGPROXY_SALT` as comma-separated lists,
/// for rotating keys: a signature made with any pair is accepted, new signatures are made with the first) and a list
/// of trusted signatures accepted without a check (`IMGPROXY_TRUSTED_SIGNATURES`).
public struct URLSigner: Sendable, Hashable {
    /// One key and its salt.
    public struct KeyPair: Sendable, Hashable {
        /// The HMAC key.
        public let key: [UInt8]
        /// The salt written before the path.
        public let salt: [UInt8]

        /// A pair of a binary key and salt.
        public init(key: [UInt8], salt: [UInt8]) {
            self.key = key
            self.salt = salt
        }
    }

    /// The most bytes a signature has: the whole HMAC-SHA256.
    public static let fullSignatureSize = 32

    /// The pairs any of which may have signed a path; the first signs new paths.
    public let pairs: [KeyPair]
    /// The bytes of the HMAC a signature keeps, 1 to 32 (imgproxy's `IMGPROXY_SIGNATURE_SIZE`, default 32).
    public let signatureSize: Int
    /// Signatures accepted for any path, without a check.
    public let trustedSignatures: Set<String>

    /// A signer with one binary key and salt.
    public init(key: [UInt8], salt: [UInt8]) {
        self.init(pairs: [KeyPair(key: key, salt: salt)])!
    }

    /// A signer accepting any of `pairs` (at least one, each with a non-empty key and salt), with signatures of
    /// `signatureSize` bytes (1 to 32) and `trustedSignatures`; `nil` otherwise.
    public init?(pairs: [KeyPair], signatureSize: Int = fullSignatureSize, trustedSignatures: Set<String> = []) {
        guard !pairs.isEmpty, (1...Self.fullSignatureSize).contains(signatureSize) else { return nil }
        self.pairs = pairs
        self.signatureSize = signatureSize
        self.trustedSignatures = trustedSignatures
    }

    /// A signer from hexadecimal key and salt (imgproxy's `IMGPROXY_KEY` and `IMGPROXY_SALT`); `nil` when either is
    /// not hexadecimal or is empty.
    public init?(hexKey: String, hexSalt: String) {
        self.init(hexKeys: [hexKey], hexSalts: [hexSalt])
    }

    /// A signer from lists of hexadecimal keys and salts, paired in order; `nil` when the lists are empty or of
    /// different lengths, or a key or salt is not hexadecimal or is empty.
    public init?(
        hexKeys: [String], hexSalts: [String], signatureSize: Int = fullSignatureSize,
        trustedSignatures: Set<String> = []
    ) {
        guard hexKeys.count == hexSalts.count else { return nil }
        var pairs: [KeyPair] = []
        for (hexKey, hexSalt) in zip(hexKeys, hexSalts) {
            guard let key = Self.bytes(hex: hexKey), let salt = Self.bytes(hex: hexSalt), !key.isEmpty, !salt.isEmpty
            else { return nil }
            pairs.append(KeyPair(key: key, salt: salt))
        }
        self.init(pairs: pairs, signatureSize: signatureSize, trustedSignatures: trustedSignatures)
    }

    /// The signature of `path` with the first pair (`path` should start with `/`; one is added when it does not).
    public func signature(for path: String) -> String {
        Base64URL.encode(Self.mac(path, pairs[0]).prefix(signatureSize))
    }

    /// Whether `signature` is trusted, or the signature of `path` by one of the pairs, compared in constant time. As
    /// imgproxy decodes it (Go's `RawURLEncoding`), a padded signature (`=`) is refused.
    public func verify(_ signature: String, for path: String) -> Bool {
        if trustedSignatures.contains(signature) { return true }
        guard !signature.contains("="), let given = OptionArguments.base64URL(signature) else { return false }
        let bytes = Array(given)
        var matched = false
        for pair in pairs {
            matched = Self.equalInConstantTime(bytes, Self.mac(path, pair).prefix(signatureSize)) || matched
        }
        return matched
    }

    /// The bytes of a hexadecimal string, or `nil`.
    public static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    /// HMAC-SHA256(key, salt + path).
    private static func mac(_ path: String, _ pair: KeyPair) -> [UInt8] {
        var message = pair.salt
        if !path.hasPrefix("/") { message.append(UInt8(ascii: "/")) }
        message.append(contentsOf: Array(path.utf8))
        return Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: pair.key)))
    }

    /// Whether `a` and `b` are equal, in a time that depends on their lengths only.
    private static func equalInConstantTime(_ a: [UInt8], _ b: ArraySlice<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case 48...57: digit - 48
        case 97...102: digit - 87
        case 65...70: digit - 55
        default: nil
        }
    }
}
