/// One allowed source of imgproxy's `IMGPROXY_ALLOWED_SOURCES`: a prefix in which each `*` matches any characters
/// but `/` (`https://*.example.com/` admits `https://cdn.example.com/a.png`, not `https://evil.com/.example.com/`).
struct SourcePattern: Sendable, Hashable {
    /// The pattern's literal parts, between its `*`s.
    private let parts: [[UInt8]]

    init(_ pattern: String) {
        parts = pattern.split(separator: "*", omittingEmptySubsequences: false).map { Array($0.utf8) }
    }

    /// Whether `source` starts with the pattern.
    func matches(_ source: String) -> Bool {
        let bytes = Array(source.utf8)
        return bytes.starts(with: parts[0]) && matches(bytes, from: parts[0].count, part: 1)
    }

    /// Whether `bytes[start...]` starts with the pattern's parts from `part` on, each after a run without `/`.
    private func matches(_ bytes: [UInt8], from start: Int, part: Int) -> Bool {
        guard part < parts.count else { return true }
        var index = start
        while true {
            if bytes[index...].starts(with: parts[part]),
                matches(bytes, from: index + parts[part].count, part: part + 1)
            {
                return true
            }
            guard index < bytes.count, bytes[index] != UInt8(ascii: "/") else { return false }
            index += 1
        }
    }
}
