/// Recognises an SVG document from its first bytes, as imgproxy's detector does (it reads XML tokens until the first
/// element and checks that it is `svg`), within a bounded prefix like imgproxy's `IMGPROXY_MAX_SVG_CHECK_BYTES`.
enum SVGSniffer {
    /// How far into the bytes the root element is looked for: imgproxy's default `MAX_SVG_CHECK_BYTES`.
    static let maxCheckBytes = 32 * 1024

    /// Whether the first element of `bytes`, after an optional byte order mark, whitespace, the XML declaration,
    /// processing instructions, comments and a doctype (with its internal subset), is `<svg` (or a prefixed
    /// `<prefix:svg`), found within ``maxCheckBytes``.
    static func isSVG(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let end = min(bytes.count, maxCheckBytes)
        var index = 0
        if end >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        while true {
            while index < end, isSpace(bytes[index]) { index += 1 }
            guard index + 1 < end, bytes[index] == UInt8(ascii: "<") else { return false }
            switch bytes[index + 1] {
            case UInt8(ascii: "?"):
                guard let after = find(bytes, "?>", from: index + 2, end: end) else { return false }
                index = after
            case UInt8(ascii: "!"):
                if starts(bytes, "<!--", at: index, end: end) {
                    guard let after = find(bytes, "-->", from: index + 4, end: end) else { return false }
                    index = after
                } else if starts(bytes, "<!DOCTYPE", at: index, end: end) {
                    guard let after = skipDoctype(bytes, from: index + 9, end: end) else { return false }
                    index = after
                } else {
                    return false
                }
            default:
                return isSVGName(bytes, from: index + 1, end: end)
            }
        }
    }

    /// Whether the element name at `start` is `svg` or `prefix:svg`, followed by a delimiter.
    private static func isSVGName(_ bytes: UnsafeRawBufferPointer, from start: Int, end: Int) -> Bool {
        var nameEnd = start
        while nameEnd < end, !isSpace(bytes[nameEnd]), bytes[nameEnd] != UInt8(ascii: ">"),
            bytes[nameEnd] != UInt8(ascii: "/")
        {
            nameEnd += 1
        }
        guard nameEnd < end, nameEnd - start >= 3 else { return false }
        let local = nameEnd - 3
        guard (local == start || bytes[local - 1] == UInt8(ascii: ":")),
            bytes[local] | 0x20 == UInt8(ascii: "s"), bytes[local + 1] | 0x20 == UInt8(ascii: "v"),
            bytes[local + 2] | 0x20 == UInt8(ascii: "g")
        else { return false }
        return true
    }

    /// The index after a doctype's closing `>`, stepping over its internal subset (`[ … ]`) and quoted strings.
    private static func skipDoctype(_ bytes: UnsafeRawBufferPointer, from start: Int, end: Int) -> Int? {
        var index = start
        var inSubset = false
        var quote: UInt8?
        while index < end {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                inSubset = true
            } else if byte == UInt8(ascii: "]") {
                inSubset = false
            } else if byte == UInt8(ascii: ">"), !inSubset {
                return index + 1
            }
            index += 1
        }
        return nil
    }

    private static func find(_ bytes: UnsafeRawBufferPointer, _ text: StaticString, from start: Int, end: Int) -> Int? {
        var index = start
        while index < end {
            if starts(bytes, text, at: index, end: end) { return index + text.utf8CodeUnitCount }
            index += 1
        }
        return nil
    }

    private static func starts(_ bytes: UnsafeRawBufferPointer, _ text: StaticString, at index: Int, end: Int) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= end else { return false }
        let pattern = UnsafeRawBufferPointer(start: text.utf8Start, count: count)
        return (0..<count).allSatisfy { bytes[index + $0] == pattern[$0] }
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
}
