import Foundation

/// How a URL's source becomes the URL fetched, as imgproxy's URL parser makes it: the replacements first
/// (`IMGPROXY_URL_REPLACEMENTS`), then the base URL put in front (`IMGPROXY_BASE_URL`), and whether a base64 source
/// ends with a file name segment to drop (`IMGPROXY_BASE64_URL_INCLUDES_FILENAME`). The result is the source the
/// allowed-sources rules and the address checks see, and the source of the result's cache key and canonical URL.
public struct SourceURLRules: Sendable, Hashable {
    /// One of `IMGPROXY_URL_REPLACEMENTS`: a prefix pattern where `*` matches anything but `/`, and its replacement,
    /// where `$1` (or `${1}`) is what the first `*` matched and `$$` is a `$`.
    public struct Replacement: Sendable, Hashable {
        public var pattern: String
        public var replacement: String

        /// A replacement of what matches `pattern` at the start of a source.
        public init(pattern: String, replacement: String) {
            self.pattern = pattern
            self.replacement = replacement
        }
    }

    /// Put in front of every source that does not already start with it; default empty: none.
    public var baseURL = ""
    /// Applied in order, each to the result of the one before; default none.
    public var replacements: [Replacement] = []
    /// A base64 source of more than one segment ends with a file name segment, dropped; default off.
    public var base64IncludesFilename = false

    /// imgproxy's defaults: sources as given.
    public init() {}

    /// imgproxy's `IMGPROXY_URL_REPLACEMENTS`: `PATTERN=REPLACEMENT` pairs separated by `;`; `nil` when a pair has
    /// no `=`.
    public static func replacements(parsing text: String) -> [Replacement]? {
        var replacements: [Replacement] = []
        for pair in text.split(separator: ";", omittingEmptySubsequences: false) {
            guard let equals = pair.firstIndex(of: "=") else { return nil }
            replacements.append(
                Replacement(pattern: String(pair[..<equals]), replacement: String(pair[pair.index(after: equals)...])))
        }
        return replacements
    }

    /// `source` after the replacements and the base URL.
    func apply(to source: String) -> String {
        var source = source
        for replacement in replacements { source = replacement.apply(to: source) }
        guard !baseURL.isEmpty, !source.hasPrefix(baseURL) else { return source }
        return baseURL + source
    }
}

extension SourceURLRules.Replacement {
    /// `source` with the part matching ``pattern`` at its start replaced, as Go's `Regexp.ReplaceAllString` does
    /// with imgproxy's pattern (`^` and each `*` as `([^/]*)`, greedy, backtracking).
    func apply(to source: String) -> String {
        let literals = pattern.split(separator: "*", omittingEmptySubsequences: false).map { Array($0.unicodeScalars) }
        let text = Array(source.unicodeScalars)
        guard let (end, groups) = Self.match(literals, at: 0, in: text, from: 0) else { return source }
        let captured = [0..<end] + groups
        return expanded(captured.map { String(String.UnicodeScalarView(text[$0])) })
            + String(String.UnicodeScalarView(text[end...]))
    }

    /// The end of the match of `literals[index...]` (joined by `[^/]*` groups) starting at `position`, and the
    /// ranges of the groups, longest first as Go's leftmost-first greedy match takes them.
    private static func match(
        _ literals: [[Unicode.Scalar]], at index: Int, in text: [Unicode.Scalar], from position: Int
    ) -> (Int, [Range<Int>])? {
        let literal = literals[index]
        guard position + literal.count <= text.count, Array(text[position..<(position + literal.count)]) == literal
        else { return nil }
        let afterLiteral = position + literal.count
        guard index + 1 < literals.count else { return (afterLiteral, []) }
        var limit = afterLiteral
        while limit < text.count, text[limit] != "/" { limit += 1 }
        for end in stride(from: limit, through: afterLiteral, by: -1) {
            if let (matchEnd, groups) = match(literals, at: index + 1, in: text, from: end) {
                return (matchEnd, [afterLiteral..<end] + groups)
            }
        }
        return nil
    }

    /// ``replacement`` with Go's `$name`, `${name}` and `$$` expanded: a number names a group (`$0` the whole
    /// match, the first of `groups`), anything else (`$1x`, a name) expands to nothing, as in Go.
    private func expanded(_ groups: [String]) -> String {
        var output = ""
        var rest = Substring(replacement)
        while let dollar = rest.firstIndex(of: "$") {
            output += rest[..<dollar]
            rest = rest[rest.index(after: dollar)...]
            if rest.first == "$" {
                output += "$"
                rest = rest.dropFirst()
                continue
            }
            let name: Substring
            if rest.first == "{", let close = rest.firstIndex(of: "}") {
                name = rest[rest.index(after: rest.startIndex)..<close]
                guard !name.isEmpty, name.allSatisfy(Self.isNameCharacter) else {
                    output += "$"
                    continue
                }
                rest = rest[rest.index(after: close)...]
            } else {
                name = rest.prefix { Self.isNameCharacter($0) }
                guard !name.isEmpty else {
                    output += "$"
                    continue
                }
                rest = rest.dropFirst(name.count)
            }
            if let number = Int(name), number >= 0, number < groups.count { output += groups[number] }
        }
        return output + rest
    }

    private static func isNameCharacter(_ character: Character) -> Bool {
        character == "_" || (character.isASCII && (character.isLetter || character.isNumber))
    }
}
