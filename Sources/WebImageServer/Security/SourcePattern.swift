/// One allowed source of imgproxy's `IMGPROXY_ALLOWED_SOURCES`: a prefix in which each `*` matches any characters
/// but `/` (`https://*.example.com/` admits `https://cdn.example.com/a.png`, not `https://evil.com/.example.com/`).
struct SourcePattern: Sendable, Hashable {
    /// The pattern's literal parts, between its `*`s.
    private let parts: [[UInt8]]

    init(_ pattern: String) {
        parts = pattern.split(separator: "*", omittingEmptySubsequences: false).map { Array($0.utf8) }
    }

    /// Whether `source` starts with the pattern. Each part is placed at the earliest position its `*` allows: as a
    /// `*` never crosses `/`, an earlier placement leaves every later part at least the same choices, so no
    /// backtracking is needed and a source is read once per part.
    func matches(_ source: String) -> Bool {
        let bytes = Array(source.utf8)
        guard bytes.starts(with: parts[0]) else { return false }
        var index = parts[0].count
        for part in parts.dropFirst() {
            while !bytes[index...].starts(with: part) {
                guard index < bytes.count, bytes[index] != UInt8(ascii: "/") else { return false }
                index += 1
            }
            index += part.count
        }
        return true
    }
}
