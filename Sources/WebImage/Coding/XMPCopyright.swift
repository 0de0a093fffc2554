import Foundation

/// The rights properties of an XMP packet, kept alone when the rest of the metadata is stripped (imgproxy's
/// `keep_copyright`, its `stripXMP`): those of the Dublin Core namespace that name rights and people (`rights`,
/// `creator`, `contributor`, `publisher`), and every property of the XMP Rights Management (`xmpRights`) and Creative
/// Commons (`cc`) namespaces, in a new packet of one `rdf:Description`.
///
/// The namespaces are found by their URIs, whatever prefixes the packet gives them. Each kept property is copied as
/// written (an element with its content, or an attribute of an `rdf:Description`), the first of each name only; the
/// packet is scanned once, never parsed by an XML library, and nothing in it is resolved.
enum XMPCopyright {
    /// The namespaces kept, by URI, with the only properties kept of each (`nil`: all).
    static let namespaces: [String: Set<String>?] = [
        "http://purl.org/dc/elements/1.1/": ["rights", "creator", "contributor", "publisher"],
        "http://ns.adobe.com/xap/1.0/rights/": nil,
        "http://creativecommons.org/ns#": nil,
    ]
    static let rdfURI = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"

    /// The packet of `xmp`'s rights properties; `nil` when it has none.
    ///
    /// One pass over the tags, each scanned up to the next `<` at most (XML allows no `<` in a tag), and one search
    /// for each kept element's end tag, which the pass then skips: linear in the packet's size.
    static func packet(from xmp: Data) -> Data? {
        guard !xmp.isEmpty, xmp.count <= XMPMetadata.maxSize else { return nil }
        let text = Array(xmp)
        var declared: [String: String] = [:]
        func keeps(_ name: QualifiedName) -> Bool {
            guard let uri = declared[name.prefix], let names = namespaces[uri] else { return false }
            return names?.contains(name.local) ?? true
        }
        var attributes: [(QualifiedName, ArraySlice<UInt8>)] = []
        var elements: [(QualifiedName, ArraySlice<UInt8>)] = []
        var seen: Set<String> = []
        var missingEnds: Set<String> = []
        var offset = 0
        while offset < text.count, let open = text[offset...].firstIndex(of: UInt8(ascii: "<")) {
            guard let (name, nameEnd) = qualifiedName(in: text, at: open + 1),
                let tagEnd = tagEnd(in: text, from: nameEnd)
            else {
                offset = open + 1
                continue
            }
            let tagAttributes = self.attributes(in: text[nameEnd..<(tagEnd - 1)])
            for (attribute, value) in tagAttributes
            where attribute.prefix == "xmlns" && declared[attribute.local] == nil {
                declared[attribute.local] = String(decoding: value, as: UTF8.self)
            }
            if declared[name.prefix] == rdfURI, name.local == "Description" {
                for (attribute, value) in tagAttributes where keeps(attribute) && seen.insert(attribute.text).inserted {
                    attributes.append((attribute, value))
                }
                offset = tagEnd
                continue
            }
            guard keeps(name), !seen.contains(name.text) else {
                offset = tagEnd
                continue
            }
            if text[tagEnd - 2] == UInt8(ascii: "/") {
                seen.insert(name.text)
                elements.append((name, text[open..<tagEnd]))
                offset = tagEnd
                continue
            }
            let close = Array("</\(name.text)>".utf8)
            guard !missingEnds.contains(name.text), let end = find(close, in: text, from: tagEnd) else {
                missingEnds.insert(name.text)
                offset = tagEnd
                continue
            }
            seen.insert(name.text)
            elements.append((name, text[open..<(end + close.count)]))
            offset = end + close.count
        }
        guard !attributes.isEmpty || !elements.isEmpty else { return nil }
        // Every prefix the kept properties use (their own, and those of their content and values), declared as the
        // packet declared it; `rdf` and `xml` are the wrapper's own.
        var used = Set(attributes.map(\.0.prefix) + elements.map(\.0.prefix))
        for (_, element) in elements { used.formUnion(prefixes(in: element)) }
        var out = "<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n"
        out += "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">\n <rdf:RDF xmlns:rdf=\"\(rdfURI)\">\n"
        out += "  <rdf:Description rdf:about=\"\""
        for prefix in used.sorted() where prefix != "rdf" && prefix != "xml" && prefix != "xmlns" {
            guard let uri = declared[prefix] else { continue }
            out += "\n    xmlns:\(prefix)=\"\(uri)\""
        }
        for (name, value) in attributes {
            out += "\n    \(name.text)=\"" + String(decoding: value, as: UTF8.self) + "\""
        }
        out += ">\n"
        for (_, element) in elements { out += "   " + String(decoding: element, as: UTF8.self) + "\n" }
        out += "  </rdf:Description>\n </rdf:RDF>\n</x:xmpmeta>\n<?xpacket end=\"w\"?>"
        return Data(out.utf8)
    }

    /// A `prefix:local` name.
    struct QualifiedName {
        var prefix: String
        var local: String
        var text: String { prefix + ":" + local }
    }

    /// The qualified attributes (`prefix:local="value"`, or with single quotes) of a start tag's text after its name,
    /// with their values as written (quotes excluded); unqualified ones are skipped whole. Each byte is read once.
    static func attributes(in tag: ArraySlice<UInt8>) -> [(QualifiedName, ArraySlice<UInt8>)] {
        var found: [(QualifiedName, ArraySlice<UInt8>)] = []
        var index = tag.startIndex
        func skipSpaces() { while index < tag.endIndex, isSpace(tag[index]) { index += 1 } }
        while index < tag.endIndex {
            skipSpaces()
            let nameStart = index
            while index < tag.endIndex, !isSpace(tag[index]),
                ![UInt8(ascii: "="), UInt8(ascii: "/"), UInt8(ascii: ">")].contains(tag[index])
            {
                index += 1
            }
            guard index > nameStart else {
                index += 1
                continue
            }
            let name = Array(tag[nameStart..<index])
            skipSpaces()
            guard index < tag.endIndex, tag[index] == UInt8(ascii: "=") else { continue }
            index += 1
            skipSpaces()
            guard index < tag.endIndex, tag[index] == UInt8(ascii: "\"") || tag[index] == UInt8(ascii: "'") else {
                continue
            }
            let quote = tag[index]
            index += 1
            let valueStart = index
            while index < tag.endIndex, tag[index] != quote { index += 1 }
            let value = tag[valueStart..<index]
            index += 1
            if let (qualified, end) = qualifiedName(in: name, at: 0), end == name.count {
                found.append((qualified, value))
            }
        }
        return found
    }

    /// The prefixes of the element and attribute names inside `element`.
    static func prefixes(in element: ArraySlice<UInt8>) -> Set<String> {
        let text = Array(element)
        var found: Set<String> = []
        for index in text.indices where text[index] == UInt8(ascii: "<") || isSpace(text[index]) {
            var start = index + 1
            if start < text.count, text[start] == UInt8(ascii: "/") { start += 1 }
            if let (name, _) = qualifiedName(in: text, at: start) { found.insert(name.prefix) }
        }
        return found
    }

    /// The qualified name starting at `offset`, and where it ends.
    static func qualifiedName(in text: [UInt8], at offset: Int) -> (QualifiedName, Int)? {
        guard let (prefix, colon) = name(in: text, at: offset), colon < text.count, text[colon] == UInt8(ascii: ":"),
            let (local, end) = name(in: text, at: colon + 1)
        else { return nil }
        return (QualifiedName(prefix: prefix, local: local), end)
    }

    /// An XML name without a colon (ASCII letters, digits, `_`, `-`, `.`) starting at `offset`, and where it ends.
    static func name(in text: [UInt8], at offset: Int) -> (String, Int)? {
        var end = offset
        while end < text.count, isNameByte(text[end], first: end == offset) { end += 1 }
        guard end > offset else { return nil }
        return (String(decoding: text[offset..<end], as: UTF8.self), end)
    }

    /// Just past the `>` that ends the tag whose name ends at `offset` (quoted `>` skipped); `nil` when there is none
    /// before the next `<`.
    static func tagEnd(in text: [UInt8], from offset: Int) -> Int? {
        var quote: UInt8?
        var index = offset
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: "<") { return nil }  // never in a tag, quoted or not
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return index + 1
            }
            index += 1
        }
        return nil
    }

    /// The first index of `needle` in `text` from `offset`.
    static func find(_ needle: [UInt8], in text: [UInt8], from offset: Int) -> Int? {
        guard let first = needle.first, offset < text.count else { return nil }
        var index = offset
        while let found = text[index...].firstIndex(of: first) {
            guard found + needle.count <= text.count else { return nil }
            if text[found..<(found + needle.count)].elementsEqual(needle) { return found }
            index = found + 1
        }
        return nil
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    static func isNameByte(_ byte: UInt8, first: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"): true
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."): !first
        default: false
        }
    }
}
