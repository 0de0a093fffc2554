/// The few MessagePack forms a Datadog agent's `/v0.4/traces` payload needs (msgpack.org's spec): maps and arrays
/// by their count, UTF-8 strings, unsigned and signed integers and 64-bit floats, each in the shortest form that
/// holds it.
struct MessagePackWriter {
    /// What was written so far.
    private(set) var bytes: [UInt8] = []

    /// The header of a map of `count` key-value pairs (which follow, key first).
    mutating func map(count: Int) { header(count, fix: 0x80, fixLimit: 16, sixteen: 0xDE, thirtyTwo: 0xDF) }

    /// The header of an array of `count` elements (which follow).
    mutating func array(count: Int) { header(count, fix: 0x90, fixLimit: 16, sixteen: 0xDC, thirtyTwo: 0xDD) }

    /// A string.
    mutating func string(_ text: String) {
        let utf8 = Array(text.utf8)
        if utf8.count < 32 {
            bytes.append(0xA0 | UInt8(utf8.count))
        } else if utf8.count <= 0xFF {
            bytes += [0xD9, UInt8(utf8.count)]
        } else {
            header(utf8.count, fix: 0, fixLimit: 0, sixteen: 0xDA, thirtyTwo: 0xDB)
        }
        bytes += utf8
    }

    /// An unsigned integer.
    mutating func unsigned(_ value: UInt64) {
        switch value {
        case 0..<0x80: bytes.append(UInt8(value))
        case 0x80...0xFF: bytes += [0xCC, UInt8(value)]
        case 0x100...0xFFFF: bytes.append(0xCD); bigEndian(value, count: 2)
        case 0x1_0000...0xFFFF_FFFF: bytes.append(0xCE); bigEndian(value, count: 4)
        default: bytes.append(0xCF); bigEndian(value, count: 8)
        }
    }

    /// A signed integer (the unsigned forms for 0 and up).
    mutating func signed(_ value: Int64) {
        if value >= 0 { return unsigned(UInt64(value)) }
        let pattern = UInt64(bitPattern: value)
        switch value {
        case -32..<0: bytes.append(UInt8(truncatingIfNeeded: pattern))
        case -0x80 ..< -32: bytes += [0xD0, UInt8(truncatingIfNeeded: pattern)]
        case -0x8000 ..< -0x80: bytes.append(0xD1); bigEndian(pattern, count: 2)
        case -0x8000_0000 ..< -0x8000: bytes.append(0xD2); bigEndian(pattern, count: 4)
        default: bytes.append(0xD3); bigEndian(pattern, count: 8)
        }
    }

    /// A 64-bit float.
    mutating func double(_ value: Double) {
        bytes.append(0xCB)
        bigEndian(value.bitPattern, count: 8)
    }

    /// A count's header: the fix form below `fixLimit`, else 16 or 32 bits (a count never exceeds 32 bits here: the
    /// writer's callers bound what they write).
    private mutating func header(_ count: Int, fix: UInt8, fixLimit: Int, sixteen: UInt8, thirtyTwo: UInt8) {
        let count = max(0, min(count, Int(UInt32.max)))
        if count < fixLimit {
            bytes.append(fix | UInt8(count))
        } else if count <= 0xFFFF {
            bytes.append(sixteen)
            bigEndian(UInt64(count), count: 2)
        } else {
            bytes.append(thirtyTwo)
            bigEndian(UInt64(count), count: 4)
        }
    }

    /// The `count` low bytes of `value`, most significant first.
    private mutating func bigEndian(_ value: UInt64, count: Int) {
        for index in stride(from: count - 1, through: 0, by: -1) {
            bytes.append(UInt8(truncatingIfNeeded: value >> (UInt64(index) * 8)))
        }
    }
}
