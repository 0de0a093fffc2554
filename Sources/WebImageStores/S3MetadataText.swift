import Foundation
import WebImage

/// An encryption context or material description as S3 returns it in an object's metadata, decoded as the S3
/// Encryption Client decodes it ("the S3 server's double encoding", which its specification asks clients to undo):
/// S3 answers a value with non-ASCII characters in RFC 2047 encoded words (`=?UTF-8?B?…?=`, `=?UTF-8?Q?…?=`), whose
/// bytes are the UTF-8 of each original byte taken as a Latin-1 character. So the words are decoded (UTF-8,
/// ISO-8859-1 and US-ASCII charsets; the space between two words dropped), then each two-byte sequence folded back
/// to the byte it stands for, as the Go client (imgproxy's) does. An ASCII value without encoded words is unchanged.
enum S3MetadataText {
    /// `value` decoded.
    /// - Throws: `WebImageError` `.corruptData` for an encoded word in another charset, or a value the Go client
    ///   cannot read either (a lone non-ASCII byte at its end).
    static func decoded(_ value: String) throws(WebImageError) -> String {
        let bytes = Array(value.utf8)
        guard bytes.contains(where: { $0 > 127 }) || value.contains("=?") else { return value }
        return try folded(try words(bytes))
    }

    /// The bytes of `bytes` with each valid encoded word replaced by its decoded bytes.
    static func words(_ bytes: [UInt8]) throws(WebImageError) -> [UInt8] {
        var output: [UInt8] = []
        var index = 0
        var afterWord: Int?
        while index < bytes.count {
            if let (decoded, end) = try word(bytes, at: index) {
                if let mark = afterWord, output[mark...].allSatisfy({ [9, 10, 13, 32].contains($0) }) {
                    output.removeSubrange(mark...)
                }
                output += decoded
                afterWord = output.count
                index = end
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return output
    }

    /// The encoded word `=?CHARSET?B|Q?TEXT?=` starting at `start` decoded, and the index after it; `nil` when none
    /// starts there (the bytes are then kept as they are).
    private static func word(_ bytes: [UInt8], at start: Int) throws(WebImageError) -> ([UInt8], Int)? {
        let (equals, question) = (UInt8(ascii: "="), UInt8(ascii: "?"))
        guard start + 1 < bytes.count, bytes[start] == equals, bytes[start + 1] == question,
            let charsetEnd = bytes[(start + 2)...].firstIndex(of: question), charsetEnd + 2 < bytes.count,
            bytes[charsetEnd + 2] == question
        else { return nil }
        let textStart = charsetEnd + 3
        var end = textStart
        while end + 1 < bytes.count, !(bytes[end] == question && bytes[end + 1] == equals) { end += 1 }
        guard end + 1 < bytes.count, charsetEnd > start + 2 else { return nil }
        let charset = String(decoding: bytes[(start + 2)..<charsetEnd], as: UTF8.self).lowercased()
        let text = Array(bytes[textStart..<end])
        let raw: [UInt8]
        switch bytes[charsetEnd + 1] | 0x20 {
        case UInt8(ascii: "b"):
            guard let data = Data(base64Encoded: Data(text)) else { return nil }
            raw = Array(data)
        case UInt8(ascii: "q"):
            guard let value = quoted(text) else { return nil }
            raw = value
        default: return nil
        }
        switch charset {
        case "utf-8", "us-ascii": return (raw, end + 2)
        case "iso-8859-1":
            var latin1 = ""
            latin1.unicodeScalars.append(contentsOf: raw.map { Unicode.Scalar($0) })
            return (Array(latin1.utf8), end + 2)
        default: throw WebImageError(.corruptData, "an S3 metadata value is encoded in the charset \(charset)")
        }
    }

    /// RFC 2047's Q encoding decoded: `_` is a space, `=XX` a byte; `nil` for a broken `=`.
    private static func quoted(_ text: [UInt8]) -> [UInt8]? {
        var result: [UInt8] = []
        var index = 0
        while index < text.count {
            switch text[index] {
            case UInt8(ascii: "_"): result.append(32)
            case UInt8(ascii: "="):
                guard index + 2 < text.count,
                    let byte = UInt8(String(decoding: text[(index + 1)...(index + 2)], as: UTF8.self), radix: 16)
                else { return nil }
                result.append(byte)
                index += 2
            default: result.append(text[index])
            }
            index += 1
        }
        return result
    }

    /// The Go client's undoing of the double encoding: each non-ASCII pair of bytes is read as one UTF-8 character
    /// whose code point's low byte is an original byte; the original bytes are read as UTF-8 when an ASCII byte
    /// follows (a value ends with an ASCII `}`).
    static func folded(_ bytes: [UInt8]) throws(WebImageError) -> String {
        var result: [UInt8] = []
        var pending: [UInt8] = []
        var skipNext = false
        for (index, byte) in bytes.enumerated() {
            if byte > 127 && !skipNext {
                guard index + 1 < bytes.count else {
                    throw WebImageError(.corruptData, "an S3 metadata value ends in the middle of a character")
                }
                let next = bytes[index + 1]
                let pair = (0xC2...0xDF).contains(byte) && (0x80...0xBF).contains(next)
                pending.append(
                    pair ? UInt8(truncatingIfNeeded: (UInt16(byte & 0x1F) << 6) | UInt16(next & 0x3F)) : 0xFD)
                skipNext = true
            } else if byte > 127 {
                skipNext = false
            } else {
                result += Array(String(decoding: pending, as: UTF8.self).utf8)
                pending = []
                result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
