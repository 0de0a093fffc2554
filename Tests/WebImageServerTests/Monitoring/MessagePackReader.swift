/// A value of a MessagePack document, read back by the tests to check what the server sent a Datadog agent.
indirect enum MessagePackValue: Equatable {
    case integer(Int64)
    case unsigned(UInt64)
    case double(Double)
    case string(String)
    case array([MessagePackValue])
    case map([(MessagePackValue, MessagePackValue)])
    case bool(Bool)
    case null

    static func == (lhs: MessagePackValue, rhs: MessagePackValue) -> Bool { "\(lhs)" == "\(rhs)" }

    /// The value of `key` in a map.
    subscript(key: String) -> MessagePackValue? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.0 == .string(key) }?.1
    }

    var text: String? { if case .string(let text) = self { text } else { nil } }
    var array: [MessagePackValue]? { if case .array(let values) = self { values } else { nil } }
    var number: UInt64? {
        switch self {
        case .unsigned(let value): value
        case .integer(let value) where value >= 0: UInt64(value)
        default: nil
        }
    }
}

/// Reads the MessagePack forms a msgpack writer may use (msgpack.org's spec), failing on anything malformed.
struct MessagePackReader {
    struct Malformed: Error {}

    private let bytes: [UInt8]
    private var offset = 0

    /// Reads the one document of `bytes`.
    static func read(_ bytes: [UInt8]) throws -> MessagePackValue {
        var reader = MessagePackReader(bytes: bytes)
        let value = try reader.value()
        guard reader.offset == bytes.count else { throw Malformed() }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func value() throws -> MessagePackValue {
        guard let byte = try take(1).first else { throw Malformed() }
        switch byte {
        case 0x00...0x7F: return .unsigned(UInt64(byte))
        case 0x80...0x8F: return try map(Int(byte & 0x0F))
        case 0x90...0x9F: return try array(Int(byte & 0x0F))
        case 0xA0...0xBF: return try string(Int(byte & 0x1F))
        case 0xC0: return .null
        case 0xC2: return .bool(false)
        case 0xC3: return .bool(true)
        case 0xCB: return .double(Double(bitPattern: try number(8)))
        case 0xCC: return .unsigned(try number(1))
        case 0xCD: return .unsigned(try number(2))
        case 0xCE: return .unsigned(try number(4))
        case 0xCF: return .unsigned(try number(8))
        case 0xD0: return .integer(Int64(Int8(truncatingIfNeeded: try number(1))))
        case 0xD1: return .integer(Int64(Int16(truncatingIfNeeded: try number(2))))
        case 0xD2: return .integer(Int64(Int32(truncatingIfNeeded: try number(4))))
        case 0xD3: return .integer(Int64(bitPattern: try number(8)))
        case 0xD9: return try string(Int(try number(1)))
        case 0xDA: return try string(Int(try number(2)))
        case 0xDB: return try string(Int(try number(4)))
        case 0xDC: return try array(Int(try number(2)))
        case 0xDD: return try array(Int(try number(4)))
        case 0xDE: return try map(Int(try number(2)))
        case 0xDF: return try map(Int(try number(4)))
        case 0xE0...0xFF: return .integer(Int64(Int8(bitPattern: byte)))
        default: throw Malformed()
        }
    }

    private mutating func take(_ count: Int) throws -> ArraySlice<UInt8> {
        guard count >= 0, bytes.count - offset >= count else { throw Malformed() }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    private mutating func number(_ count: Int) throws -> UInt64 {
        try take(count).reduce(0) { $0 << 8 | UInt64($1) }
    }

    private mutating func string(_ count: Int) throws -> MessagePackValue {
        guard let text = String(validating: try take(count), as: UTF8.self) else { throw Malformed() }
        return .string(text)
    }

    private mutating func array(_ count: Int) throws -> MessagePackValue {
        var values: [MessagePackValue] = []
        for _ in 0..<count { values.append(try value()) }
        return .array(values)
    }

    private mutating func map(_ count: Int) throws -> MessagePackValue {
        var pairs: [(MessagePackValue, MessagePackValue)] = []
        for _ in 0..<count { pairs.append((try value(), try value())) }
        return .map(pairs)
    }
}
