import Foundation

/// One value of an AWS shared file: text, or a block of indented `key = value` lines under a key with no value of
/// its own (`s3 =` then `  addressing_style = path`).
public enum AWSConfigValue: Sendable, Hashable {
    case text(String)
    case nested([String: String])

    /// The text, `nil` for a nested block.
    public var text: String? {
        if case .text(let text) = self { text } else { nil }
    }

    /// The nested block, `nil` for text.
    public var nested: [String: String]? {
        if case .nested(let values) = self { values } else { nil }
    }
}

/// An AWS shared config or credentials file, read as botocore (the AWS CLI) reads it: Python's `configparser` with
/// its defaults, then one level of nested blocks.
///
/// - `[NAME]` starts a section (the text up to the line's last `]`); `key = value` or `key: value` (the first `=` or
///   `:`) sets an option, the key lower-cased, both trimmed; a line indented deeper than its option continues the
///   value; a line whose first non-blank character is `#` or `;` is a comment (there are no comments at the end of a
///   line: `key = a # b` is `a # b`, as botocore reads it).
/// - An option with no value on its line followed by indented `key = value` lines is a nested block.
/// - The keys of a `[DEFAULT]` section apply to every section, as in `configparser`.
/// - A line outside any section, a line that is neither a section, an option nor a continuation, a duplicate section
///   or option, a nested line without `=` and text that is not UTF-8 are errors (botocore refuses such files too), as
///   is a file over ``maxSize``.
public struct AWSConfigFile: Sendable, Hashable {
    /// The file's path, named in errors and credential sources.
    public let path: String
    /// The sections by name, each with its options (`[DEFAULT]`'s merged in).
    public let sections: [String: [String: AWSConfigValue]]

    /// The largest file read: 1 MiB (a real one is a few kilobytes).
    public static let maxSize = 1 << 20

    /// The file at `path`, or `nil` when there is no file there (the AWS tools skip a missing file).
    /// - Throws: ``S3ConfigurationError/unreadableFile(path:reason:)`` for a file that cannot be read or is larger
    ///   than ``maxSize``, ``S3ConfigurationError/malformedFile(path:line:reason:)`` for one that does not parse.
    public static func load(path: String) throws(S3ConfigurationError) -> AWSConfigFile? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        guard !isDirectory.boolValue else { throw .unreadableFile(path: path, reason: "is a directory") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .unreadableFile(path: path, reason: "cannot be opened")
        }
        defer { try? handle.close() }
        let data: Data
        do { data = try handle.read(upToCount: maxSize + 1) ?? Data() } catch {
            throw .unreadableFile(path: path, reason: "cannot be read")
        }
        guard data.count <= maxSize else {
            throw .unreadableFile(path: path, reason: "is larger than \(maxSize >> 20) MiB")
        }
        return try AWSConfigFile(data: data, path: path)
    }

    /// The file whose bytes are `data`.
    public init(data: Data, path: String) throws(S3ConfigurationError) {
        guard data.count <= Self.maxSize else {
            throw .unreadableFile(path: path, reason: "is larger than \(Self.maxSize >> 20) MiB")
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw .malformedFile(path: path, line: 1, reason: "is not UTF-8 text")
        }
        try self.init(text: text, path: path)
    }

    /// The file whose text is `text`.
    public init(text: String, path: String) throws(S3ConfigurationError) {
        self.path = path
        var parser = Parser(path: path)
        let body = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        for (index, line) in Self.lines(body).enumerated() { try parser.read(line, number: index + 1) }
        sections = try parser.finish()
    }

    /// The lines of `text`, split at `\n`, `\r\n` and `\r` (Python's universal newlines).
    private static func lines(_ text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
    }

    /// `configparser`'s reading loop, one line at a time.
    private struct Parser {
        let path: String
        /// One option: its name and its lines (the first, then continuations) with their numbers.
        typealias Option = (name: String, lines: [(text: String, number: Int)])

        /// The options of each section, in order.
        var sections: [String: [Option]] = [:]
        var defaults: [Option] = []
        var current: String?
        /// Whether the current option has a place to continue: set by an option line, cleared by a section.
        var inOption = false
        var indent = 0

        init(path: String) { self.path = path }

        mutating func read(_ raw: Substring, number: Int) throws(S3ConfigurationError) {
            let value = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if value.hasPrefix("#") || value.hasPrefix(";") { return }
            if value.isEmpty {
                // An empty line inside a value is kept (joined as a newline), as configparser keeps it.
                if inOption { append("", number) }
                return
            }
            let lineIndent = raw.prefix { $0.isWhitespace }.count
            if current != nil, inOption, lineIndent > indent {
                append(value, number)
                return
            }
            indent = lineIndent
            if value.hasPrefix("["), let close = value.lastIndex(of: "]"), value.index(after: value.startIndex) < close
            {
                let name = String(value[value.index(after: value.startIndex)..<close])
                if name == "DEFAULT" {
                    current = name
                } else {
                    guard sections[name] == nil else { throw malformed(number, "duplicate section [\(name)]") }
                    sections[name] = []
                    current = name
                }
                inOption = false
                return
            }
            guard let section = current else { throw malformed(number, "an option before any [section]") }
            guard let delimiter = value.firstIndex(where: { $0 == "=" || $0 == ":" }) else {
                throw malformed(number, "neither [section], key = value nor an indented continuation")
            }
            let name = value[..<delimiter].trimmingCharacters(in: .whitespaces).lowercased()
            guard !name.isEmpty else { throw malformed(number, "an option without a name") }
            let text = value[value.index(after: delimiter)...].trimmingCharacters(in: .whitespaces)
            let options = section == "DEFAULT" ? defaults : sections[section] ?? []
            guard !options.contains(where: { $0.name == name }) else {
                throw malformed(number, "duplicate option '\(name)' in [\(section)]")
            }
            let option: Option = (name: name, lines: [(text, number)])
            if section == "DEFAULT" { defaults.append(option) } else { sections[section, default: []].append(option) }
            inOption = true
        }

        private mutating func append(_ line: String, _ number: Int) {
            guard let section = current else { return }
            if section == "DEFAULT" {
                defaults[defaults.count - 1].lines.append((line, number))
            } else if var options = sections[section], !options.isEmpty {
                options[options.count - 1].lines.append((line, number))
                sections[section] = options
            }
        }

        private func malformed(_ line: Int, _ reason: String) -> S3ConfigurationError {
            .malformedFile(path: path, line: line, reason: reason)
        }

        /// The sections with their values joined (trailing empty lines dropped) and nested blocks parsed.
        func finish() throws(S3ConfigurationError) -> [String: [String: AWSConfigValue]] {
            let shared = try values(defaults)
            var result: [String: [String: AWSConfigValue]] = [:]
            for (name, options) in sections {
                result[name] = shared.merging(try values(options)) { $1 }
            }
            return result
        }

        private func values(_ options: [Option]) throws(S3ConfigurationError) -> [String: AWSConfigValue] {
            var values: [String: AWSConfigValue] = [:]
            for option in options {
                var lines = option.lines
                while lines.count > 1, lines.last?.text.isEmpty == true { lines.removeLast() }
                if lines.count > 1, lines[0].text.isEmpty {
                    var nested: [String: String] = [:]
                    for line in lines.dropFirst() where !line.text.isEmpty {
                        guard let equals = line.text.firstIndex(of: "=") else {
                            throw malformed(line.number, "a nested line without '=' under '\(option.name)'")
                        }
                        nested[line.text[..<equals].trimmingCharacters(in: .whitespaces)] =
                            line.text[line.text.index(after: equals)...].trimmingCharacters(in: .whitespaces)
                    }
                    values[option.name] = .nested(nested)
                } else {
                    values[option.name] = .text(lines.map(\.text).joined(separator: "\n"))
                }
            }
            return values
        }
    }
}
