import Foundation

/// The properties of an XMP packet, grouped by namespace prefix as imgproxy shows them (`{"dc": {"creator":
/// ["…"]}, "photoshop": {"DateCreated": "…"}}`): simple properties written as attributes or elements, and arrays
/// (`rdf:Seq`, `rdf:Bag`, `rdf:Alt`) as lists of their items' text. Structures nested deeper are skipped. The packet
/// is read with three regular expressions, never executed or resolved; XML entities are decoded. Only the first
/// ``maximumBytes`` are read: the array pattern (a lazy run ended by a back-reference) can take time quadratic in
/// the text on a hostile packet, and a JPEG's XMP segment holds no more anyway.
enum XMPFields {
    /// The most bytes of a packet read (64 KiB, a JPEG APP1 segment).
    static let maximumBytes = 1 << 16

    static func fields(_ xmp: Data) -> [(String, [(String, JSONValue)])] {
        let text = String(decoding: xmp.prefix(maximumBytes), as: UTF8.self)
        var groups: [(String, [(String, JSONValue)])] = []
        func add(_ prefix: String, _ name: String, _ value: JSONValue) {
            guard !["rdf", "x", "xmlns", "xml"].contains(prefix) else { return }
            if let index = groups.firstIndex(where: { $0.0 == prefix }) {
                if !groups[index].1.contains(where: { $0.0 == name }) { groups[index].1.append((name, value)) }
            } else {
                groups.append((prefix, [(name, value)]))
            }
        }
        for match in matches(arrays, in: text) {
            let items = matches(item, in: match[3]).map { JSONValue.string(decode($0[1])) }
            add(match[1], match[2], .array(items))
        }
        for match in matches(element, in: text) { add(match[1], match[2], .string(decode(match[3]))) }
        for match in matches(attribute, in: text) { add(match[1], match[2], .string(decode(match[3]))) }
        return groups
    }

    private static let name = "([A-Za-z_][A-Za-z0-9_.-]*):([A-Za-z_][A-Za-z0-9_.-]*)"
    private static var arrays: NSRegularExpression? {
        regex("<\(name)>\\s*<rdf:(?:Seq|Bag|Alt)>([\\s\\S]*?)</rdf:(?:Seq|Bag|Alt)>\\s*</\\1:\\2>")
    }
    private static var item: NSRegularExpression? { regex("<rdf:li[^>]*>([^<]*)</rdf:li>") }
    private static var element: NSRegularExpression? { regex("<\(name)(?:\\s[^>]*)?>([^<]*)</\\1:\\2>") }
    private static var attribute: NSRegularExpression? { regex("\\s\(name)=\"([^\"]*)\"") }

    /// `nil` only if a pattern of this file failed to compile (the XMP tests use every one), which then matches
    /// nothing rather than trapping.
    private static func regex(_ pattern: String) -> NSRegularExpression? {
        try? NSRegularExpression(pattern: pattern)
    }

    private static func matches(_ expression: NSRegularExpression?, in text: String) -> [[String]] {
        guard let expression else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return expression.matches(in: text, range: range).map { match in
            (0..<match.numberOfRanges).map { index in
                Range(match.range(at: index), in: text).map { String(text[$0]) } ?? ""
            }
        }
    }

    private static func decode(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&").trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
