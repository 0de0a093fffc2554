import Foundation
import WebImage

/// Parses option arguments as imgproxy does (Go's `strconv`), with every number checked to be finite and in range.
enum OptionArguments {
    /// The largest integer argument accepted (sizes, quality, …): larger values could overflow pixel arithmetic.
    static let maxInteger = 1 << 30
    /// The largest floating-point argument accepted.
    static let maxFloat = 1e9

    /// Throws unless there are at most `count` arguments.
    static func ensureMax(_ option: String, _ args: [String], _ count: Int) throws(ImageServerError) {
        guard args.count <= count else {
            throw .invalid("invalid \(option) arguments: at most \(count) expected, \(args.count) given")
        }
    }

    /// Go's `strconv.ParseBool`, where anything it does not accept is false (as imgproxy treats it).
    static func bool(_ value: String) -> Bool {
        ["1", "t", "T", "TRUE", "true", "True"].contains(value)
    }

    /// An integer: optional sign, decimal digits only, within ±``maxInteger``.
    static func integer(_ option: String, _ value: String) throws(ImageServerError) -> Int {
        let digits = value.hasPrefix("-") || value.hasPrefix("+") ? value.dropFirst() : Substring(value)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), digits.utf8.count <= 18,
            let number = Int(value), abs(number) <= maxInteger
        else {
            throw .argument(option, value, "an integer")
        }
        return number
    }

    /// An integer ≥ 0.
    static func nonNegativeInteger(_ option: String, _ value: String) throws(ImageServerError) -> Int {
        let number = try? integer(option, value)
        guard let number, number >= 0 else { throw .argument(option, value, "a positive number or 0") }
        return number
    }

    /// A finite decimal number within ±``maxFloat`` (no `inf`, `nan` or hexadecimal).
    static func float(_ option: String, _ value: String) throws(ImageServerError) -> Double {
        let allowed = Set("0123456789+-.eE".utf8)
        guard !value.isEmpty, value.utf8.count <= 64, value.utf8.allSatisfy({ allowed.contains($0) }),
            let number = Double(value), number.isFinite, abs(number) <= maxFloat
        else {
            throw .argument(option, value, "a number")
        }
        return number
    }

    /// A pixel size for `pixelate`: an integer ≥ 0, where 1 (blocks of one pixel: no change) is 0.
    static func pixelSize(_ option: String, _ value: String) throws(ImageServerError) -> Int {
        let size = try nonNegativeInteger(option, value)
        return size == 1 ? 0 : size
    }

    /// A number ≥ 0.
    static func nonNegativeFloat(_ option: String, _ value: String) throws(ImageServerError) -> Double {
        let number = try? float(option, value)
        guard let number, number >= 0 else { throw .argument(option, value, "a positive number or 0") }
        return number
    }

    /// A number > 0.
    static func positiveFloat(_ option: String, _ value: String) throws(ImageServerError) -> Double {
        let number = try? float(option, value)
        guard let number, number > 0 else { throw .argument(option, value, "a positive number") }
        return number
    }

    /// A quality from 0 to 100.
    static func quality(_ option: String, _ value: String) throws(ImageServerError) -> Int {
        let number = try? integer(option, value)
        guard let number, (0...100).contains(number) else { throw .argument(option, value, "a number in 0-100") }
        return number
    }

    /// `rrggbb` or `rgb` hexadecimal.
    static func hexColor(_ option: String, _ value: String) throws(ImageServerError) -> RGBA {
        let hex = Array(value.utf8)
        guard hex.count == 3 || hex.count == 6, let number = UInt32(value, radix: 16),
            hex.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 | 0x20 >= 97 && $0 | 0x20 <= 102) })
        else {
            throw .argument(option, value, "a hex color")
        }
        if hex.count == 3 {
            return RGBA(
                red: UInt8((number >> 8) & 0xF) * 17, green: UInt8((number >> 4) & 0xF) * 17,
                blue: UInt8(number & 0xF) * 17)
        }
        return RGBA(red: UInt8(number >> 16), green: UInt8((number >> 8) & 0xFF), blue: UInt8(number & 0xFF))
    }

    /// One colour channel, 0 to 255.
    static func channel(_ option: String, _ value: String) throws(ImageServerError) -> UInt8 {
        let number = try? integer(option, value)
        guard let number, (0...255).contains(number), !value.hasPrefix("-"), !value.hasPrefix("+") else {
            throw .argument(option, value, "a number in 0-255")
        }
        return UInt8(number)
    }

    /// URL-safe base64 without padding (trailing `=` tolerated), decoded as UTF-8.
    static func base64URL(_ value: String) -> Data? {
        var text = String(value.reversed().drop { $0 == "=" }.reversed())
        guard text.utf8.allSatisfy({ Base64URL.alphabet.contains($0) }), text.utf8.count % 4 != 1 else { return nil }
        text = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.utf8.count % 4) % 4)
        return Data(base64Encoded: text)
    }
}

/// The URL-safe base64 alphabet (RFC 4648 §5).
enum Base64URL {
    /// The 64 digits, in order.
    static let digits = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    static let alphabet = Set(digits)

    /// `data` in URL-safe base64 without padding.
    static func encode(_ data: some Sequence<UInt8>) -> String {
        Data(data).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
