/// JSON string literals, for the `/info` answer and `webimage serve`'s JSON log lines.
package enum JSONString {
    /// `string` as a JSON string literal: quotes, backslashes and control characters escaped, and U+2028/U+2029
    /// (valid JSON, but line ends to JavaScript).
    package static func quoted(_ string: String) -> String {
        var output = ""
        quote(string, to: &output)
        return output
    }

    /// Appends `string` as a JSON string literal to `output`.
    static func quote(_ string: String, to output: inout String) {
        output += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
