import Foundation

/// A JSON value whose object keys keep their order: the `/info` answer is written in the order imgproxy documents.
indirect enum JSONValue: Sendable, Hashable {
    case int(Int)
    /// A number with a fraction, written as Go writes a `float64` in JSON (the shortest text that reads back).
    case number(Double)
    case string(String)
    case bool(Bool)
    case array([JSONValue])
    case object([(String, JSONValue)])

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.text == rhs.text }

    func hash(into hasher: inout Hasher) { hasher.combine(text) }

    /// The compact JSON text.
    var text: String {
        var output = ""
        write(to: &output)
        return output
    }

    private func write(to output: inout String) {
        switch self {
        case .int(let value): output += String(value)
        case .number(let value): output += value.isFinite ? String(value) : "null"
        case .bool(let value): output += value ? "true" : "false"
        case .string(let value): JSONString.quote(value, to: &output)
        case .array(let values):
            output += "["
            for (index, value) in values.enumerated() {
                if index > 0 { output += "," }
                value.write(to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { output += "," }
                JSONString.quote(key, to: &output)
                output += ":"
                value.write(to: &output)
            }
            output += "}"
        }
    }

    /// `{"R": r, "G": g, "B": b[, "A": a]}`, as imgproxy writes colours.
    static func color(_ color: RGBAComponents, alpha: Bool) -> JSONValue {
        var members: [(String, JSONValue)] = [("R", .int(color.0)), ("G", .int(color.1)), ("B", .int(color.2))]
        if alpha { members.append(("A", .int(color.3))) }
        return .object(members)
    }

    typealias RGBAComponents = (Int, Int, Int, Int)
}
