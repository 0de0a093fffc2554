/// OTLP's JSON encoding of an ``OTLPMessage`` (the protobuf JSON mapping with OTLP's exceptions): fields by their
/// lowerCamelCase names, a repeated field as one array, enums as numbers, 64-bit integers as strings, trace and span
/// ids in hexadecimal.
extension OTLPMessage {
    /// The message's JSON text, as UTF-8.
    package func json() -> [UInt8] {
        var text = ""
        write(into: &text)
        return Array(text.utf8)
    }

    private func write(into text: inout String) {
        var names: [String] = []
        var groups: [String: [Field]] = [:]
        for field in fields {
            if groups[field.name] == nil { names.append(field.name) }
            groups[field.name, default: []].append(field)
        }
        text += "{"
        for (index, name) in names.enumerated() {
            if index > 0 { text += "," }
            Self.quote(name, into: &text)
            text += ":"
            let group = groups[name] ?? []
            if group.first?.repeated == true {
                text += "["
                for (position, field) in group.enumerated() {
                    if position > 0 { text += "," }
                    Self.value(field.value, into: &text)
                }
                text += "]"
            } else if let last = group.last {
                Self.value(last.value, into: &text)
            }
        }
        text += "}"
    }

    private static func value(_ value: Value, into text: inout String) {
        switch value {
        case .string(let string): quote(string, into: &text)
        case .bytes(let bytes):
            quote(bytes.map { hexDigits[Int($0 >> 4)] + hexDigits[Int($0 & 15)] }.joined(), into: &text)
        case .unsigned(let number): text += String(number)
        case .signed(let number): text += "\"\(number)\""
        case .fixed64(let number): text += "\"\(number)\""
        case .fixed32(let number): text += String(number)
        case .bool(let flag): text += flag ? "true" : "false"
        case .message(let message): message.write(into: &text)
        case .double(let number):
            if number.isNaN {
                text += "\"NaN\""
            } else if number.isInfinite {
                text += number < 0 ? "\"-Infinity\"" : "\"Infinity\""
            } else {
                text += "\(number)"
            }
        }
    }

    private static let hexDigits = (0..<16).map { String($0, radix: 16) }

    /// `string` in quotes, with `"`, `\` and the control characters escaped.
    private static func quote(_ string: String, into text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
