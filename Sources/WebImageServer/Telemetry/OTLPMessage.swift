import Logging
import Tracing

/// One OTLP protobuf message as the list of its fields, written either as protobuf bytes (``protobuf()``) or as
/// OTLP's JSON (``json()``): the exporters build each `Export…ServiceRequest` once, as this tree, and the transport
/// picks the encoding.
package struct OTLPMessage: Sendable {
    /// A field's value, with the wire type it is written in.
    enum Value: Sendable {
        /// A UTF-8 string (length-delimited).
        case string(String)
        /// Bytes (length-delimited); OTLP's JSON writes them in hexadecimal (trace and span ids).
        case bytes([UInt8])
        /// An unsigned varint: enums and counts; a JSON number.
        case unsigned(UInt64)
        /// A signed 64-bit varint; a JSON string, as proto3's JSON writes 64-bit integers.
        case signed(Int64)
        /// A `fixed64`: times in nanoseconds; a JSON string.
        case fixed64(UInt64)
        /// A `fixed32`: flags; a JSON number.
        case fixed32(UInt32)
        /// A `double` (64-bit wire type).
        case double(Double)
        /// A `bool` (varint).
        case bool(Bool)
        /// A nested message (length-delimited).
        case message(OTLPMessage)
    }

    /// One field: its number, its JSON name, its value, and whether it is one element of a repeated field.
    struct Field: Sendable {
        let number: Int
        let name: String
        let value: Value
        let repeated: Bool
    }

    /// The fields, in the order they were added.
    private(set) var fields: [Field] = []

    /// `self` with the field `number` (JSON name `name`) set to `value`.
    func with(_ number: Int, _ name: String, _ value: Value) -> OTLPMessage {
        var message = self
        message.fields.append(Field(number: number, name: name, value: value, repeated: false))
        return message
    }

    /// `self` with `values` appended to the repeated field `number` (JSON name `name`).
    func with(_ number: Int, _ name: String, repeated values: [OTLPMessage]) -> OTLPMessage {
        var message = self
        message.fields += values.map { Field(number: number, name: name, value: .message($0), repeated: true) }
        return message
    }

    /// `self` with `values` appended to the repeated scalar field `number` (JSON name `name`), each written as a
    /// field of its own (protobuf parsers read packed and unpacked repeated scalars alike).
    func with(_ number: Int, _ name: String, repeatedValues values: [Value]) -> OTLPMessage {
        var message = self
        message.fields += values.map { Field(number: number, name: name, value: $0, repeated: true) }
        return message
    }

    /// An `InstrumentationScope` named `name`.
    static func scope(_ name: String) -> OTLPMessage { OTLPMessage().with(1, "name", .string(name)) }

    /// A `Resource` with `attributes`, sorted by key.
    static func resource(_ attributes: [String: String]) -> OTLPMessage {
        OTLPMessage().with(
            1, "attributes", repeated: attributes.sorted { $0.key < $1.key }.map { keyValue($0.key, .string($0.value)) }
        )
    }

    /// A `KeyValue` of `key` and the `AnyValue` `value`.
    static func keyValue(_ key: String, _ value: OTLPMessage) -> OTLPMessage {
        OTLPMessage().with(1, "key", .string(key)).with(2, "value", .message(value))
    }

    /// The `KeyValue`s of span attributes, sorted by key.
    static func attributes(_ attributes: SpanAttributes) -> [OTLPMessage] {
        var pairs: [(String, OTLPMessage)] = []
        attributes.forEach { key, attribute in pairs.append((key, anyValue(attribute))) }
        return pairs.sorted { $0.0 < $1.0 }.map { keyValue($0.0, $0.1) }
    }

    /// The `KeyValue`s of log metadata, sorted by key.
    static func attributes(_ metadata: Logger.Metadata) -> [OTLPMessage] {
        metadata.sorted { $0.key < $1.key }.map { keyValue($0.key, anyValue($0.value)) }
    }

    /// An `AnyValue` holding the string `text`.
    static func string(_ text: String) -> OTLPMessage { OTLPMessage().with(1, "stringValue", .string(text)) }

    /// An `AnyValue` of a span attribute.
    static func anyValue(_ attribute: SpanAttribute) -> OTLPMessage {
        let value = OTLPMessage()
        switch attribute {
        case .string(let text): return string(text)
        case .bool(let flag): return value.with(2, "boolValue", .bool(flag))
        case .int32(let number): return value.with(3, "intValue", .signed(Int64(number)))
        case .int64(let number): return value.with(3, "intValue", .signed(number))
        case .double(let number): return value.with(4, "doubleValue", .double(number))
        case .stringArray(let texts): return array(texts.map(string))
        case .boolArray(let flags): return array(flags.map { anyValue(.bool($0)) })
        case .int32Array(let numbers): return array(numbers.map { anyValue(.int32($0)) })
        case .int64Array(let numbers): return array(numbers.map { anyValue(.int64($0)) })
        case .doubleArray(let numbers): return array(numbers.map { anyValue(.double($0)) })
        case .stringConvertibleArray(let values): return array(values.map { string(String(describing: $0)) })
        default: return string(String(describing: attribute))
        }
    }

    /// An `AnyValue` of a log metadata value.
    static func anyValue(_ metadata: Logger.MetadataValue) -> OTLPMessage {
        switch metadata {
        case .string(let text): return string(text)
        case .stringConvertible(let value): return string(value.description)
        case .array(let values): return array(values.map(anyValue))
        case .dictionary(let entries):
            let list = OTLPMessage().with(1, "values", repeated: attributes(entries))
            return OTLPMessage().with(6, "kvlistValue", .message(list))
        }
    }

    /// An `AnyValue` holding an `ArrayValue` of `values`.
    private static func array(_ values: [OTLPMessage]) -> OTLPMessage {
        OTLPMessage().with(5, "arrayValue", .message(OTLPMessage().with(1, "values", repeated: values)))
    }
}
