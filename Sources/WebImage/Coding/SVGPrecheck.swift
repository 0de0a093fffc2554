/// What an SVG document may cost, bounded from its bytes before librsvg parses them.
///
/// One pass over the bytes: start tags are counted, internal entity declarations (`<!ENTITY name "value">`) are
/// measured, each with the size and the start tags it expands to (a reference inside a value counts the entity it
/// names, declared before it), and each reference in the document adds what its entity expands to. So an entity bomb
/// (a billion laughs) is refused from its declarations, before libxml2 expands anything. External entities
/// (`SYSTEM`, `PUBLIC`) and parameter entities (`%`) are refused outright: nothing may be read from outside the bytes,
/// and the count could not bound what they bring in.
struct SVGPrecheck {
    /// The most bytes an SVG may have.
    let maxBytes: Int
    /// The most elements it may have once its entities are expanded.
    let maxElements: Int
    /// The most bytes it may have once its entities are expanded.
    let maxExpandedBytes: Int

    private struct Expansion {
        var bytes = 0
        var elements = 0
    }

    /// Throws ``WebImageError/Code/tooLarge`` when a bound is passed, ``WebImageError/Code/corruptData`` for an
    /// external or parameter entity.
    func check(_ bytes: UnsafeRawBufferPointer) throws(WebImageError) {
        guard bytes.count <= maxBytes else {
            throw WebImageError(.tooLarge, "the SVG has \(bytes.count) bytes, more than the limit of \(maxBytes)")
        }
        var entities: [ArraySlice<UInt8>: Expansion] = [:]
        var total = Expansion(bytes: bytes.count, elements: 0)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "<"), Self.matches(bytes, at: index, "<!ENTITY") {
                index = try declare(bytes, from: index + 8, into: &entities)
                continue
            }
            if byte == UInt8(ascii: "<"), index + 1 < bytes.count, Self.isNameStart(bytes[index + 1]) {
                total.elements += 1
            } else if byte == UInt8(ascii: "&"), let (name, end) = Self.reference(bytes, at: index) {
                if let expansion = entities[name] {
                    total.bytes = total.bytes.addingSaturated(expansion.bytes)
                    total.elements = total.elements.addingSaturated(expansion.elements)
                }
                index = end
                continue
            }
            index += 1
        }
        try checkBounds(total)
    }

    private func checkBounds(_ expansion: Expansion) throws(WebImageError) {
        guard expansion.elements <= maxElements else {
            throw WebImageError(.tooLarge, "the SVG has more than \(maxElements) elements once its entities expand")
        }
        guard expansion.bytes <= maxExpandedBytes else {
            throw WebImageError(.tooLarge, "the SVG has more than \(maxExpandedBytes) bytes once its entities expand")
        }
    }

    /// Reads one `<!ENTITY` declaration after its keyword; returns the index after it.
    private func declare(
        _ bytes: UnsafeRawBufferPointer, from start: Int, into entities: inout [ArraySlice<UInt8>: Expansion]
    ) throws(WebImageError) -> Int {
        var index = Self.skipSpace(bytes, from: start)
        guard index < bytes.count, bytes[index] != UInt8(ascii: "%") else {
            throw WebImageError(.corruptData, "the SVG declares a parameter entity, which is not allowed")
        }
        let nameStart = index
        while index < bytes.count, Self.isNameByte(bytes[index]) { index += 1 }
        let name = ArraySlice(bytes[nameStart..<index])
        index = Self.skipSpace(bytes, from: index)
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
            throw WebImageError(.corruptData, "the SVG declares an external entity, which is not allowed")
        }
        let quote = bytes[index]
        var expansion = Expansion()
        index += 1
        while index < bytes.count, bytes[index] != quote {
            if bytes[index] == UInt8(ascii: "&"), let (referenced, end) = Self.reference(bytes, at: index) {
                let inner = entities[referenced] ?? Expansion(bytes: end - index, elements: 0)
                expansion.bytes = expansion.bytes.addingSaturated(inner.bytes)
                expansion.elements = expansion.elements.addingSaturated(inner.elements)
                index = end
                continue
            }
            if bytes[index] == UInt8(ascii: "<"), index + 1 < bytes.count, Self.isNameStart(bytes[index + 1]) {
                expansion.elements += 1
            }
            expansion.bytes += 1
            index += 1
        }
        try checkBounds(expansion)
        // The first declaration of a name is the one XML uses.
        if entities[name] == nil { entities[name] = expansion }
        return index + 1
    }

    /// The name of the entity reference `&name;` at `index` and the index after it; `nil` for a character reference
    /// or a lone `&`.
    private static func reference(_ bytes: UnsafeRawBufferPointer, at index: Int) -> (ArraySlice<UInt8>, Int)? {
        var end = index + 1
        guard end < bytes.count, isNameStart(bytes[end]) else { return nil }
        while end < bytes.count, isNameByte(bytes[end]) { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else { return nil }
        return (ArraySlice(bytes[(index + 1)..<end]), end + 1)
    }

    private static func matches(_ bytes: UnsafeRawBufferPointer, at index: Int, _ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let pattern = UnsafeRawBufferPointer(start: text.utf8Start, count: count)
        return (0..<count).allSatisfy { bytes[index + $0] == pattern[$0] }
    }

    private static func skipSpace(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var index = start
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        return index
    }

    private static func isNameStart(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: ":") || byte >= 0x80
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        isNameStart(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".")
    }
}

extension Int {
    fileprivate func addingSaturated(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }
}
