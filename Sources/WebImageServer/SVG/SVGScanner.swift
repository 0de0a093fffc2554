/// A cursor over an SVG's bytes for the sanitiser's tokenizer: every step moves forward, so a walk is linear.
struct SVGScanner {
    let bytes: [UInt8]
    var index: Int

    /// The byte at the cursor; `nil` at the end.
    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// Whether the bytes at the cursor are `text`.
    func starts(with text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let pattern = UnsafeRawBufferPointer(start: text.utf8Start, count: count)
        return (0..<count).allSatisfy { bytes[index + $0] == pattern[$0] }
    }

    /// Moves past the next `text`; throws when there is none.
    mutating func skip(past text: StaticString) throws(ImageServerError) {
        while index < bytes.count {
            if starts(with: text) {
                index += text.utf8CodeUnitCount
                return
            }
            index += 1
        }
        throw SVGSanitizer.broken("the SVG ends inside a comment, CDATA section or instruction")
    }

    /// Moves past the quoted string at the cursor, quotes included.
    mutating func skipQuoted() throws(ImageServerError) {
        guard let quote = peek else { throw SVGSanitizer.broken("the SVG ends inside a quoted string") }
        index += 1
        while index < bytes.count, bytes[index] != quote { index += 1 }
        guard index < bytes.count else { throw SVGSanitizer.broken("the SVG ends inside a quoted string") }
        index += 1
    }

    mutating func skipSpace() {
        while let byte = peek, Self.isSpace(byte) { index += 1 }
    }

    /// The name at the cursor (up to a space, `=`, `/`, `>`, a quote, `<` or `&`), possibly empty.
    mutating func name() -> ArraySlice<UInt8> {
        let start = index
        while let byte = peek, !Self.isSpace(byte), !Self.delimiters.contains(byte) { index += 1 }
        return bytes[start..<index]
    }

    private static let delimiters: Set<UInt8> = Set("=/>\"'<&;[]".utf8)

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
}
