import Foundation

/// A protobuf message read by the tests alone, independently of the encoder under test: its fields by number, each
/// occurrence's raw value (a varint's number, a fixed field's little-endian number, a length-delimited field's bytes),
/// without a schema. Reads OTLP's `Export…ServiceRequest` messages down to the scope names and records.
struct ProtobufFields {
    /// One field occurrence's value.
    enum Value: Equatable {
        case number(UInt64)
        case bytes([UInt8])
    }

    private(set) var fields: [Int: [Value]] = [:]

    /// The message in `bytes`; `nil` for bytes that are not a well-formed message.
    init?(_ bytes: [UInt8]) {
        var index = 0
        func varint() -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while index < bytes.count, shift < 64 {
                let byte = bytes[index]
                index += 1
                value |= UInt64(byte & 0x7f) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
            return nil
        }
        func fixed(_ count: Int) -> UInt64? {
            guard index + count <= bytes.count else { return nil }
            defer { index += count }
            return (0..<count).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[index + $1]) }
        }
        while index < bytes.count {
            guard let tag = varint(), tag >> 3 > 0 else { return nil }
            let number = Int(tag >> 3)
            let value: Value
            switch tag & 7 {
            case 0: guard let number = varint() else { return nil }; value = .number(number)
            case 1: guard let number = fixed(8) else { return nil }; value = .number(number)
            case 5: guard let number = fixed(4) else { return nil }; value = .number(number)
            case 2:
                guard let length = varint(), length <= UInt64(bytes.count - index) else { return nil }
                value = .bytes(Array(bytes[index..<index + Int(length)]))
                index += Int(length)
            default: return nil
            }
            fields[number, default: []].append(value)
        }
    }

    /// The messages of field `number`.
    func messages(_ number: Int) -> [ProtobufFields] {
        (fields[number] ?? []).compactMap { if case .bytes(let bytes) = $0 { ProtobufFields(bytes) } else { nil } }
    }

    /// The bytes of the first occurrence of field `number`.
    func bytes(_ number: Int) -> [UInt8]? {
        if case .bytes(let bytes) = fields[number]?.first { bytes } else { nil }
    }

    /// The first occurrence of field `number` as UTF-8 text.
    func string(_ number: Int) -> String? { bytes(number).map { String(decoding: $0, as: UTF8.self) } }

    /// The first occurrence of field `number` as a number.
    func number(_ number: Int) -> UInt64? {
        if case .number(let value) = fields[number]?.first { value } else { nil }
    }

    /// The `KeyValue`s of field `number` whose values are strings, by key.
    func stringAttributes(_ number: Int) -> [String: String] {
        var attributes: [String: String] = [:]
        for pair in messages(number) {
            guard let key = pair.string(1), let text = pair.messages(2).first?.string(1) else { continue }
            attributes[key] = text
        }
        return attributes
    }

    /// The records of an `Export…ServiceRequest` (spans or log records) with the scope name each is under.
    static func records(in body: Data) -> [(scope: String, record: ProtobufFields)] {
        guard let request = ProtobufFields(Array(body)) else { return [] }
        return request.messages(1).flatMap { resource in
            resource.messages(2).flatMap { scoped in
                let scope = scoped.messages(1).first?.string(1) ?? ""
                return scoped.messages(2).map { (scope: scope, record: $0) }
            }
        }
    }
}
