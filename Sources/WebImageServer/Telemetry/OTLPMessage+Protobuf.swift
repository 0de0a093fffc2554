/// The protobuf binary encoding of an ``OTLPMessage``: each field as its tag (number and wire type) and value;
/// nested messages and strings length-delimited, integers as varints, times as little-endian `fixed64`.
extension OTLPMessage {
    /// The message's protobuf bytes.
    package func protobuf() -> [UInt8] {
        var bytes: [UInt8] = []
        write(into: &bytes)
        return bytes
    }

    private func write(into bytes: inout [UInt8]) {
        for field in fields {
            let number = UInt64(field.number) << 3
            switch field.value {
            case .string(let text): Self.delimited(Array(text.utf8), number: number, into: &bytes)
            case .bytes(let data): Self.delimited(data, number: number, into: &bytes)
            case .message(let message): Self.delimited(message.protobuf(), number: number, into: &bytes)
            case .unsigned(let value):
                Self.varint(number, into: &bytes)
                Self.varint(value, into: &bytes)
            case .signed(let value):
                Self.varint(number, into: &bytes)
                Self.varint(UInt64(bitPattern: value), into: &bytes)
            case .bool(let flag):
                Self.varint(number, into: &bytes)
                bytes.append(flag ? 1 : 0)
            case .fixed64(let value):
                Self.varint(number | 1, into: &bytes)
                Self.littleEndian(value, count: 8, into: &bytes)
            case .double(let value):
                Self.varint(number | 1, into: &bytes)
                Self.littleEndian(value.bitPattern, count: 8, into: &bytes)
            case .fixed32(let value):
                Self.varint(number | 5, into: &bytes)
                Self.littleEndian(UInt64(value), count: 4, into: &bytes)
            }
        }
    }

    /// The tag of a length-delimited field, the length of `data` and `data`.
    private static func delimited(_ data: [UInt8], number: UInt64, into bytes: inout [UInt8]) {
        varint(number | 2, into: &bytes)
        varint(UInt64(data.count), into: &bytes)
        bytes += data
    }

    /// `value` in 7-bit groups, low first, each but the last with its high bit set.
    private static func varint(_ value: UInt64, into bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// The low `count` bytes of `value`, low first.
    private static func littleEndian(_ value: UInt64, count: Int, into bytes: inout [UInt8]) {
        for index in 0..<count { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
    }
}
