import Foundation
import WebImage

/// Parses option arguments as imgproxy does (Go's `strconv`): integers are any 64-bit integer, as `Atoi` reads them,
/// clamped to ±``maxInteger`` where they become sizes (so that a width of 99999999999 is a huge width, limited by the
/// result dimension, rather than an overflow); numbers have `ParseFloat`'s syntax (decimals of any length, hexadecimal
/// with a `p` exponent, `inf`), and must be finite and within ±``maxFloat``, but a crop, which is clamped to the image
/// anyway, also takes larger values and `Infinity`.
enum OptionArguments {
    /// The largest integer a size or count argument keeps (sizes, quality, …): larger values are clamped to it, as
    /// larger values could overflow pixel arithmetic.
    static let maxInteger = 1 << 30
    /// The largest floating-point argument accepted (a security default: a blur or zoom beyond it would only make
    /// work).
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

    /// An integer as Go's `Atoi` reads it (an optional sign and decimal digits, any 64-bit value), clamped to
    /// ±``maxInteger``.
    static func integer(_ option: String, _ value: String) throws(ImageServerError) -> Int {
        min(max(try int64(option, value), -maxInteger), maxInteger)
    }

    /// Any 64-bit integer, as Go's `strconv.Atoi` reads it: an optional sign and decimal digits.
    static func int64(_ option: String, _ value: String) throws(ImageServerError) -> Int {
        let digits = value.hasPrefix("-") || value.hasPrefix("+") ? value.dropFirst() : Substring(value)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let number = Int(value) else {
            throw .argument(option, value, "an integer")
        }
        return number
    }

    /// A 64-bit integer ≥ 0.
    static func nonNegativeInt64(_ option: String, _ value: String) throws(ImageServerError) -> Int {
        let number = try? int64(option, value)
        guard let number, number >= 0 else { throw .argument(option, value, "a positive number or 0") }
        return number
    }

    /// A 64-bit integer > 0.
    static func positiveInt64(_ option: String, _ value: String) throws(ImageServerError) -> Int {
        let number = try? int64(option, value)
        guard let number, number > 0 else { throw .argument(option, value, "a positive number") }
        return number
    }

    /// An integer ≥ 0.
    static func nonNegativeInteger(_ option: String, _ value: String) throws(ImageServerError) -> Int {
        let number = try? integer(option, value)
        guard let number, number >= 0 else { throw .argument(option, value, "a positive number or 0") }
        return number
    }

    /// A finite number in Go's `ParseFloat` syntax within ±``maxFloat`` (not `inf` or `nan`).
    static func float(_ option: String, _ value: String) throws(ImageServerError) -> Double {
        guard let number = GoFloat.parse(value), number.isFinite, abs(number) <= maxFloat else {
            throw .argument(option, value, "a number")
        }
        return number
    }

    /// A crop size: a number ≥ 0 in Go's `ParseFloat` syntax, `Infinity` included, clamped to ``maxFloat`` (the
    /// geometry clamps it to the image, as imgproxy does).
    static func cropSize(_ option: String, _ value: String) throws(ImageServerError) -> Double {
        guard let number = GoFloat.parse(value), number >= 0 else {
            throw .argument(option, value, "a positive number or 0")
        }
        return min(number, maxFloat)
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
