/// The entities an SVG's doctype declares, as the sanitiser expands them.
///
/// The sanitised document has no doctype (its internal subset could declare markup, or attribute defaults such as an
/// `onload`), so each reference to a declared entity is replaced by its value. Only values that are plain text are
/// expanded: no markup (`<`), and no reference but character references and XML's five predefined entities. A
/// reference to any other entity (one with markup, an external or undeclared one) makes the document refused.
struct SVGEntities {
    /// Values of the declared text entities, by name.
    private(set) var values: [ArraySlice<UInt8>: ArraySlice<UInt8>] = [:]
    /// Declared entities that are not expanded.
    private(set) var refused: Set<ArraySlice<UInt8>> = []

    /// XML's predefined entities and the characters they stand for.
    static let predefined: [ArraySlice<UInt8>: UInt8] = [
        ArraySlice("lt".utf8): UInt8(ascii: "<"), ArraySlice("gt".utf8): UInt8(ascii: ">"),
        ArraySlice("amp".utf8): UInt8(ascii: "&"), ArraySlice("quot".utf8): UInt8(ascii: "\""),
        ArraySlice("apos".utf8): UInt8(ascii: "'"),
    ]

    /// Reads the declarations of the doctype whose keyword ends at `start`; returns the index after the doctype.
    mutating func readDoctype(_ bytes: [UInt8], from start: Int) throws(ImageServerError) -> Int {
        var scanner = SVGScanner(bytes: bytes, index: start)
        var inSubset = false
        while let byte = scanner.peek {
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                try scanner.skipQuoted()
            } else if byte == UInt8(ascii: "[") {
                inSubset = true
                scanner.index += 1
            } else if byte == UInt8(ascii: "]") {
                inSubset = false
                scanner.index += 1
            } else if byte == UInt8(ascii: ">"), !inSubset {
                return scanner.index + 1
            } else if inSubset, scanner.starts(with: "<!ENTITY") {
                scanner.index += 8
                try readEntity(&scanner)
            } else if inSubset, scanner.starts(with: "<!--") {
                try scanner.skip(past: "-->")
            } else {
                scanner.index += 1
            }
        }
        throw SVGSanitizer.broken("the doctype does not end")
    }

    private mutating func readEntity(_ scanner: inout SVGScanner) throws(ImageServerError) {
        scanner.skipSpace()
        let parameter = scanner.peek == UInt8(ascii: "%")
        if parameter {
            scanner.index += 1
            scanner.skipSpace()
        }
        let name = scanner.name()
        scanner.skipSpace()
        if let quote = scanner.peek, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
            let valueStart = scanner.index + 1
            try scanner.skipQuoted()
            let value = scanner.bytes[valueStart..<(scanner.index - 1)]
            if !parameter, !name.isEmpty, values[name] == nil, !refused.contains(name) {
                if Self.isPlainText(value) { values[name] = value } else { refused.insert(name) }
            }
        } else if !parameter, !name.isEmpty, values[name] == nil {
            refused.insert(name)
        }
        while let byte = scanner.peek, byte != UInt8(ascii: ">") {
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                try scanner.skipQuoted()
            } else {
                scanner.index += 1
            }
        }
        scanner.index += 1
    }

    /// Whether `value` has no markup and no reference but character references and predefined entities.
    private static func isPlainText(_ value: ArraySlice<UInt8>) -> Bool {
        var index = value.startIndex
        while index < value.endIndex {
            switch value[index] {
            case UInt8(ascii: "<"), UInt8(ascii: "%"): return false
            case UInt8(ascii: "&"):
                guard let semicolon = value[index...].firstIndex(of: UInt8(ascii: ";")) else { return false }
                let name = value[(index + 1)..<semicolon]
                guard name.first == UInt8(ascii: "#") || predefined[name] != nil else { return false }
                index = semicolon + 1
            default: index += 1
            }
        }
        return true
    }

    /// What the reference `&name;` stands for, to be written as is: itself for a character reference or a predefined
    /// entity, the value for a declared text entity; throws for any other.
    func replacement(
        for name: ArraySlice<UInt8>, reference: ArraySlice<UInt8>
    ) throws(ImageServerError)
        -> ArraySlice<UInt8>
    {
        if name.first == UInt8(ascii: "#") || Self.predefined[name] != nil { return reference }
        if let value = values[name] { return value }
        throw SVGSanitizer.broken("the SVG refers to an entity that cannot be expanded")
    }

    /// `value` with every reference resolved to its characters, for the checks of link targets; `nil` when a
    /// reference cannot be resolved.
    func decoded(_ value: ArraySlice<UInt8>) -> String? {
        var out: [UInt8] = []
        var index = value.startIndex
        while index < value.endIndex {
            guard value[index] == UInt8(ascii: "&") else {
                out.append(value[index])
                index += 1
                continue
            }
            guard let semicolon = value[index...].firstIndex(of: UInt8(ascii: ";")) else { return nil }
            let name = value[(index + 1)..<semicolon]
            if let byte = Self.predefined[name] {
                out.append(byte)
            } else if name.first == UInt8(ascii: "#") {
                let hex = name.dropFirst().first.map { $0 | 0x20 == UInt8(ascii: "x") } ?? false
                let digits = String(decoding: name.dropFirst(hex ? 2 : 1), as: UTF8.self)
                guard let code = UInt32(digits, radix: hex ? 16 : 10), let scalar = Unicode.Scalar(code) else {
                    return nil
                }
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            } else if let inner = values[name], let text = decoded(inner) {
                out.append(contentsOf: Array(text.utf8))
            } else {
                return nil
            }
            index = semicolon + 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
