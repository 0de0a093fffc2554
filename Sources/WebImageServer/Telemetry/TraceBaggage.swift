import Foundation
import Tracing

/// W3C baggage, as OpenTelemetry Go's `baggage.Parse` reads a `baggage` header and writes it back: comma-separated
/// members `key=value;property;key=value`, keys HTTP tokens, values of the baggage characters with `%XX` escapes
/// (decoded, invalid UTF-8 read as U+FFFD, escaped again when written). A member that does not parse is left out; a
/// header over 8192 bytes is dropped whole; members stop at 64, or where the written header would pass 8192 bytes; a
/// key given twice keeps its last value.
struct TraceBaggage: Sendable, Hashable {
    /// One `key=value` with its properties.
    struct Member: Sendable, Hashable {
        let key: String
        /// The value, percent-decoded.
        let value: String
        /// The properties: a key, with a decoded value or none.
        let properties: [Property]

        /// The member as the header writes it.
        var text: String {
            ([key + "=" + TraceBaggage.escaped(value)] + properties.map(\.text)).joined(separator: ";")
        }
    }

    /// A member's property, `key` or `key=value`.
    struct Property: Sendable, Hashable {
        let key: String
        let value: String?

        var text: String { value.map { key + "=" + TraceBaggage.escaped($0) } ?? key }
    }

    /// The context's key.
    enum Key: ServiceContextKey {
        typealias Value = TraceBaggage
    }

    /// The most members kept, and the most bytes of a header read or written (the W3C limits as OpenTelemetry Go
    /// applies them).
    static let maximumMembers = 64
    static let maximumBytes = 8192

    /// The members, in the order their keys first came.
    private(set) var members: [Member]

    /// The baggage of a `baggage` header; `nil` when it holds no member that parses, or is over 8192 bytes.
    init?(header: String) {
        guard header.utf8.count <= Self.maximumBytes else { return nil }
        var members: [Member] = []
        var sizes: [Int] = []
        var total = 0
        for text in header.split(separator: ",", omittingEmptySubsequences: false) {
            guard members.count < Self.maximumMembers else { break }
            guard let member = Self.member(text) else { continue }
            let size = member.text.utf8.count
            if let index = members.firstIndex(where: { $0.key == member.key }) {
                let grown = total - sizes[index] + size + (index > 0 ? 1 : 0)
                guard grown <= Self.maximumBytes else { break }
                members[index] = member
                (sizes[index], total) = (size + (index > 0 ? 1 : 0), grown)
            } else {
                let added = size + (members.isEmpty ? 0 : 1)
                guard total + added <= Self.maximumBytes else { break }
                members.append(member)
                sizes.append(added)
                total += added
            }
        }
        guard !members.isEmpty else { return nil }
        self.members = members
    }

    /// The `baggage` header of these members.
    var header: String { members.map(\.text).joined(separator: ",") }

    /// A list member, `nil` when it does not parse: `key = value` (blanks around both trimmed), then properties.
    private static func member(_ text: Substring) -> Member? {
        let parts = text.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
        var properties: [Property] = []
        if parts.count == 2 {
            for property in parts[1].split(separator: ";", omittingEmptySubsequences: false) where !property.isEmpty {
                guard let parsed = Self.property(property) else { return nil }
                properties.append(parsed)
            }
        }
        guard let equals = parts[0].firstIndex(of: "=") else { return nil }
        let key = parts[0][..<equals].trimmingCharacters(in: .whitespaces)
        let raw = parts[0][parts[0].index(after: equals)...].trimmingCharacters(in: .whitespaces)
        guard !key.isEmpty, key.utf8.allSatisfy(isKeyByte), raw.utf8.allSatisfy(isValueByte),
            let value = unescaped(raw)
        else { return nil }
        return Member(key: key, value: value, properties: properties)
    }

    /// A property, `key` or `key=value` with blanks (spaces, tabs) around each part; `nil` when it does not parse.
    private static func property(_ text: Substring) -> Property? {
        let bytes = Array(text.utf8)
        var index = skipBlanks(bytes, from: 0)
        let keyStart = index
        while index < bytes.count, isKeyByte(bytes[index]) { index += 1 }
        guard index > keyStart else { return nil }
        let key = String(decoding: bytes[keyStart..<index], as: UTF8.self)
        index = skipBlanks(bytes, from: index)
        if index == bytes.count { return Property(key: key, value: nil) }
        guard bytes[index] == UInt8(ascii: "=") else { return nil }
        index = skipBlanks(bytes, from: index + 1)
        let valueStart = index
        while index < bytes.count, isValueByte(bytes[index]) { index += 1 }
        let raw = String(decoding: bytes[valueStart..<index], as: UTF8.self)
        guard skipBlanks(bytes, from: index) == bytes.count, let value = unescaped(raw) else { return nil }
        return Property(key: key, value: value)
    }

    private static func skipBlanks(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") {
            index += 1
        }
        return index
    }

    /// An HTTP token character (RFC 9110's `tchar`), as baggage keys are.
    private static func isKeyByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"):
            true
        default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    /// A baggage value character: printable ASCII but for space, `"`, `,`, `;` and `\`.
    private static func isValueByte(_ byte: UInt8) -> Bool {
        (0x21...0x7E).contains(byte) && !Array("\",;\\".utf8).contains(byte)
    }

    /// `text` with its `%XX` escapes decoded (invalid UTF-8 as U+FFFD); `nil` for a `%` without two hex digits.
    private static func unescaped(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "%") else {
                decoded.append(bytes[index])
                index += 1
                continue
            }
            guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            else { return nil }
            decoded.append(high << 4 | low)
            index += 3
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `value` escaped for the header: `%` and every byte that is not a baggage value character as `%XX`.
    static func escaped(_ value: String) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in value.utf8 {
            if byte == UInt8(ascii: "%") || !isValueByte(byte) {
                bytes += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 15)]]
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension ServiceContext {
    /// The caller's W3C baggage, when a request carried some.
    var traceBaggage: TraceBaggage? {
        get { self[TraceBaggage.Key.self] }
        set { self[TraceBaggage.Key.self] = newValue }
    }
}
