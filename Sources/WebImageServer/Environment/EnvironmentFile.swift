/// imgproxy's `IMGPROXY_ENV_LOCAL_FILE_PATH` file: `KEY=value` lines read as imgproxy reads them (its `env/load.go`
/// with the dotenv parser it pins, DarthSim/godotenv 1.3.1), for `webimage serve` to set in its environment before
/// anything else, over the variables already there.
///
/// A line is `KEY=value`, `KEY: value` or `export KEY=value`; blank lines and lines starting with `#` are skipped; a
/// `#` outside quotes starts a comment. A value in single quotes is taken as it is; in double quotes `\n` and `\r`
/// become a line break and a carriage return, a backslash before another character is dropped, and `$NAME` or
/// `${NAME}` (upper-case letters, digits, `_`) is replaced by the value of a line above, else of the environment, else
/// nothing, as it is in a value without quotes; `\$` keeps the `$`. A later line wins over an earlier one.
package enum EnvironmentFile {
    /// A line that is neither blank, a comment, nor `KEY=value`.
    package struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The line, counted from 1.
        package let line: Int
        package var description: String { "line \(line) has no '=' or ':' between a key and a value" }
    }

    /// The variables of `text` in the order of their last line, with `environment` for the `$NAME` the file does
    /// not set.
    package static func parse(
        _ text: String, environment: [String: String]
    ) throws(ParseError) -> [(name: String, value: String)] {
        var values: [String: String] = [:]
        var order: [String] = []
        // Lines end at `\n` (a `\r\n` is one `Character` in Swift), a `\r` before it dropped, as Go's line scanner.
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for (index, rawLine) in lines.enumerated() {
            let line = rawLine.hasSuffix("\r") ? String(rawLine.dropLast()) : String(rawLine)
            let trimmed = line.trimmingWhitespace
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
            guard let (name, value) = entry(withoutComment(line), values: values, environment: environment) else {
                throw ParseError(line: index + 1)
            }
            if values.updateValue(value, forKey: name) == nil { order.append(name) }
        }
        return order.map { ($0, values[$0] ?? "") }
    }

    /// `line` without its comment: the parts between `#` that are inside quotes are kept (godotenv's rule: a part
    /// with one `"` or one `'` opens or closes the quotes).
    private static func withoutComment(_ line: String) -> String {
        guard line.contains("#") else { return line }
        var open = false
        var kept: [Substring] = []
        for segment in line.split(separator: "#", omittingEmptySubsequences: false) {
            if segment.filter({ $0 == "\"" }).count == 1 || segment.filter({ $0 == "'" }).count == 1 {
                if open {
                    open = false
                    kept.append(segment)
                } else {
                    open = true
                }
            }
            if kept.isEmpty || open { kept.append(segment) }
        }
        return kept.joined(separator: "#")
    }

    /// The key and the value of a line, split at its first `=`, or at its first `:` when that comes before.
    private static func entry(
        _ line: String, values: [String: String], environment: [String: String]
    ) -> (String, String)? {
        let equals = line.firstIndex(of: "=")
        let colon = line.firstIndex(of: ":")
        let separator = colon.map { colon in equals.map { colon < $0 ? colon : $0 } ?? colon } ?? equals
        guard let separator else { return nil }
        var key = line[..<separator].trimmingWhitespace
        if key.hasPrefix("export"), let first = key.dropFirst(6).first, first == " " || first == "\t" {
            key = key.dropFirst(6).trimmingWhitespace
        }
        return (key, value(String(line[line.index(after: separator)...]), values: values, environment: environment))
    }

    /// A value as godotenv reads it: trimmed of spaces, unquoted, escapes and variables expanded.
    private static func value(_ raw: String, values: [String: String], environment: [String: String]) -> String {
        var value = Substring(raw)
        while value.first == " " { value = value.dropFirst() }
        while value.last == " " { value = value.dropLast() }
        guard value.count > 1 else { return String(value) }
        let single = value.first == "'" && value.last == "'"
        let double = value.first == "\"" && value.last == "\""
        if single || double { value = value.dropFirst().dropLast() }
        var text = String(value)
        if double { text = unescaped(text) }
        return single ? text : expanded(text, values: values, environment: environment)
    }

    /// `\n` and `\r` as a line break and a carriage return, and the backslash dropped before any other character
    /// but `$`.
    private static func unescaped(_ text: String) -> String {
        var output = ""
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            guard character == "\\", let next = characters.first else {
                output.append(character)
                continue
            }
            characters.removeFirst()
            switch next {
            case "n": output.append("\n")
            case "r": output.append("\r")
            case "$": output += "\\$"
            default: output.append(next)
            }
        }
        return output
    }

    /// `$NAME`, `${NAME}` (and godotenv's looser `$(NAME`, `${NAME`) replaced by a value of the file or the
    /// environment; `\$…` kept without its backslash.
    private static func expanded(_ text: String, values: [String: String], environment: [String: String]) -> String {
        let characters = Array(text)
        var output = ""
        var index = 0
        while index < characters.count {
            let escaped = characters[index] == "\\" && index + 1 < characters.count && characters[index + 1] == "$"
            guard escaped || characters[index] == "$" else {
                output.append(characters[index])
                index += 1
                continue
            }
            let start = index
            index += escaped ? 2 : 1
            if index < characters.count, characters[index] == "(" { index += 1 }
            if index < characters.count, characters[index] == "{" { index += 1 }
            let nameStart = index
            while index < characters.count, isNameCharacter(characters[index]) { index += 1 }
            let name = String(characters[nameStart..<index])
            if index < characters.count, characters[index] == "}" { index += 1 }
            let match = String(characters[start..<index])
            if escaped {
                output += match.dropFirst()
            } else if !name.isEmpty {
                output += values[name] ?? environment[name] ?? ""
            } else {
                output += match
            }
        }
        return output
    }

    private static func isNameCharacter(_ character: Character) -> Bool {
        character == "_" || (character.isASCII && (character.isUppercase || character.isNumber))
    }
}

extension StringProtocol {
    /// Without the white space at either end.
    fileprivate var trimmingWhitespace: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
