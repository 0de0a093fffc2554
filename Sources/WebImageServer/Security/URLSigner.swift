import Crypto
import Foundation

/// imgproxy's URL signature: URL-safe base64 (no padding) of HMAC-SHA256(key, salt + path).
public struct URLSigner: Sendable, Hashable {
    let key: [UInt8]
    let salt: [UInt8]

    /// A signer with a binary key and salt.
    public init(key: [UInt8], salt: [UInt8]) {
        self.key = key
        self.salt = salt
    }

    /// A signer from hexadecimal key and salt (imgproxy's `IMGPROXY_KEY` and `IMGPROXY_SALT`); `nil` when either is
    /// not hexadecimal or is empty.
    public init?(hexKey: String, hexSalt: String) {
        guard let key = Self.bytes(hex: hexKey), let salt = Self.bytes(hex: hexSalt), !key.isEmpty, !salt.isEmpty
        else { return nil }
        self.init(key: key, salt: salt)
    }

    /// The signature of `path` (which should start with `/`; one is added when it does not).
    public func signature(for path: String) -> String {
        var message = salt
        if !path.hasPrefix("/") { message.append(UInt8(ascii: "/")) }
        message.append(contentsOf: Array(path.utf8))
        let mac = HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key))
        return Base64URL.encode(Array(mac))
    }

    /// Whether `signature` is the signature of `path`, compared in constant time. As imgproxy decodes it (Go's
    /// `RawURLEncoding`), a padded signature (`=`) is refused.
    public func verify(_ signature: String, for path: String) -> Bool {
        guard !signature.contains("="), let given = OptionArguments.base64URL(signature) else { return false }
        var message = salt
        if !path.hasPrefix("/") { message.append(UInt8(ascii: "/")) }
        message.append(contentsOf: Array(path.utf8))
        return HMAC<SHA256>.isValidAuthenticationCode(given, authenticating: message, using: SymmetricKey(data: key))
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

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case 48...57: digit - 48
        case 97...102: digit - 87
        case 65...70: digit - 55
        default: nil
        }
    }
}
