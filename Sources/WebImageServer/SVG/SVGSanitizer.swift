import Foundation

/// imgproxy's SVG sanitiser (`IMGPROXY_SANITIZE_SVG`, its `processing/svg` package), on a tokenizer of our own.
///
/// One forward walk over the bytes writes the document back with `<script>`, `<iframe>` and `<form>` elements (and
/// `<embed>`, `<object>`) removed with their content, every `on…` event attribute removed, `<use>` links kept only
/// to fragments (`#id`), `<image>` links only to `http`, `https` and `data` URLs, other links only to `http`,
/// `https`, fragments and relative references, and animation values (`to`, `from`, `by`, `values`) with any other
/// scheme removed (so an `<animate>`/`<set>` cannot turn a link into `javascript:`). The doctype is dropped and its
/// text entities expanded (``SVGEntities``); processing instructions other than the XML declaration are dropped.
/// Comments, CDATA sections and text are kept as they are.
///
/// Bounded: nesting is at most ``maxDepth`` elements and the output at most four times the input (plus 64 KiB),
/// whatever the entities; a document that is not well-formed (a tag left open, an end tag that does not match, a
/// `<` inside an attribute value) is refused. Every failure is a 422, imgproxy's "Broken or unsupported SVG image".
package struct SVGSanitizer: Sendable {
    /// The deepest nesting of elements accepted.
    package static let maxDepth = 256

    /// Elements removed with everything inside them.
    private static let removed: Set<String> = ["script", "iframe", "form", "embed", "object"]
    /// Attributes whose values are lists of animation values, each checked as a link.
    private static let animationValues: Set<String> = ["to", "from", "by", "values"]

    package init() {}

    /// The sanitised document.
    package func sanitize(_ data: Data) throws(ImageServerError) -> Data {
        var walk = Walk(scanner: SVGScanner(bytes: Array(data), index: 0), limit: data.count * 4 + 65_536)
        try walk.run()
        return Data(walk.output)
    }

    /// imgproxy's sanitiser error, which it reports (``ImageServerError/isProcessingFailure``).
    static func broken(_ reason: String) -> ImageServerError {
        var failure = ImageServerError(status: 422, "Broken or unsupported SVG image: \(reason)")
        failure.isProcessingFailure = true
        return failure
    }

    /// The state of one walk.
    private struct Walk {
        var scanner: SVGScanner
        let limit: Int
        var output: [UInt8] = []
        var entities = SVGEntities()
        /// The names of the open elements.
        var open: [ArraySlice<UInt8>] = []
        /// While inside a removed element, the depth of its start tag.
        var removedAt: Int?
        /// Whether an element has been written: a document of removed elements only is refused, as its output
        /// (text alone) would be.
        var sawElement = false

        var writing: Bool { removedAt == nil }

        mutating func run() throws(ImageServerError) {
            output.reserveCapacity(scanner.bytes.count)
            while let byte = scanner.peek {
                if byte == UInt8(ascii: "<") {
                    try markup()
                } else if byte == UInt8(ascii: "&") {
                    let text = try expanded(quote: nil)
                    if writing { output.append(contentsOf: text) }
                } else {
                    if writing { output.append(byte) }
                    scanner.index += 1
                }
                guard output.count <= limit else { throw SVGSanitizer.broken("the SVG expands beyond the limit") }
            }
            guard open.isEmpty, sawElement else { throw SVGSanitizer.broken("the SVG ends with an element open") }
        }

        private mutating func copy(from start: Int) {
            if writing { output.append(contentsOf: scanner.bytes[start..<scanner.index]) }
        }

        private mutating func markup() throws(ImageServerError) {
            let start = scanner.index
            if scanner.starts(with: "<!--") {
                try scanner.skip(past: "-->")
                copy(from: start)
            } else if scanner.starts(with: "<![CDATA[") {
                try scanner.skip(past: "]]>")
                copy(from: start)
            } else if scanner.starts(with: "<!DOCTYPE") {
                guard !sawElement else { throw SVGSanitizer.broken("a doctype after the root element") }
                scanner.index = try entities.readDoctype(scanner.bytes, from: start + 9)
            } else if scanner.starts(with: "<?") {
                let declaration = scanner.starts(with: "<?xml ") && start == 0
                try scanner.skip(past: "?>")
                if declaration { copy(from: start) }
            } else if scanner.starts(with: "</") {
                try endTag()
            } else {
                try startTag()
            }
        }

        private mutating func endTag() throws(ImageServerError) {
            scanner.index += 2
            let name = scanner.name()
            scanner.skipSpace()
            guard scanner.peek == UInt8(ascii: ">"), let last = open.popLast(), last == name else {
                throw SVGSanitizer.broken("an end tag that matches no open element")
            }
            scanner.index += 1
            if let depth = removedAt {
                if open.count == depth { removedAt = nil }
                return
            }
            output.append(contentsOf: Array("</".utf8) + name + [UInt8(ascii: ">")])
        }

        private mutating func startTag() throws(ImageServerError) {
            scanner.index += 1
            let name = scanner.name()
            guard !name.isEmpty else { throw SVGSanitizer.broken("a `<` that starts no tag") }
            guard open.count < SVGSanitizer.maxDepth else { throw SVGSanitizer.broken("elements nested too deeply") }
            let element = Self.localName(name)
            var attributes: [UInt8] = []
            var closed = false
            while true {
                scanner.skipSpace()
                guard let byte = scanner.peek else { throw SVGSanitizer.broken("the SVG ends inside a tag") }
                if byte == UInt8(ascii: ">") {
                    scanner.index += 1
                    break
                }
                if byte == UInt8(ascii: "/") {
                    scanner.index += 1
                    guard scanner.peek == UInt8(ascii: ">") else { throw SVGSanitizer.broken("a `/` inside a tag") }
                    scanner.index += 1
                    closed = true
                    break
                }
                try attribute(of: element, into: &attributes)
            }
            let removes = SVGSanitizer.removed.contains(element)
            if !closed {
                if writing && removes { removedAt = open.count }
                open.append(name)
            }
            guard writing, !removes else { return }
            sawElement = true
            output.append(UInt8(ascii: "<"))
            output.append(contentsOf: name)
            output.append(contentsOf: attributes)
            output.append(contentsOf: closed ? Array("/>".utf8) : [UInt8(ascii: ">")])
        }

        /// Reads one `name="value"`, writing it (with a space before) into `attributes` unless a rule removes it.
        private mutating func attribute(of element: String, into attributes: inout [UInt8]) throws(ImageServerError) {
            let name = scanner.name()
            scanner.skipSpace()
            guard !name.isEmpty, scanner.peek == UInt8(ascii: "=") else {
                throw SVGSanitizer.broken("an attribute without a value")
            }
            scanner.index += 1
            scanner.skipSpace()
            guard let quote = scanner.peek, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                throw SVGSanitizer.broken("an unquoted attribute value")
            }
            scanner.index += 1
            var value: [UInt8] = []
            let rawStart = scanner.index
            while let byte = scanner.peek, byte != quote {
                guard byte != UInt8(ascii: "<") else { throw SVGSanitizer.broken("a `<` inside an attribute value") }
                if byte == UInt8(ascii: "&") {
                    value += try expanded(quote: quote)
                } else {
                    value.append(byte)
                    scanner.index += 1
                }
            }
            guard scanner.peek == quote else { throw SVGSanitizer.broken("the SVG ends inside an attribute value") }
            let raw = scanner.bytes[rawStart..<scanner.index]
            scanner.index += 1
            guard
                SVGLinkRules.keeps(
                    attribute: Self.localName(name), of: element, value: entities.decoded(raw),
                    animationValues: SVGSanitizer.animationValues)
            else { return }
            attributes.append(0x20)
            attributes.append(contentsOf: name)
            attributes.append(contentsOf: [UInt8(ascii: "="), quote] + value + [quote])
        }

        /// The reference at the cursor, expanded; in an attribute value, a quote that would close it is escaped.
        private mutating func expanded(quote: UInt8?) throws(ImageServerError) -> [UInt8] {
            let start = scanner.index
            scanner.index += 1
            let name = scanner.name()
            guard scanner.peek == UInt8(ascii: ";") else { throw SVGSanitizer.broken("a `&` that starts no reference") }
            scanner.index += 1
            let replacement = try entities.replacement(for: name, reference: scanner.bytes[start..<scanner.index])
            guard let quote else { return Array(replacement) }
            let escape = Array((quote == UInt8(ascii: "\"") ? "&quot;" : "&apos;").utf8)
            return replacement.flatMap { $0 == quote ? escape : [$0] }
        }

        /// The lowercased name after any namespace prefix.
        private static func localName(_ name: ArraySlice<UInt8>) -> String {
            let local = name.lastIndex(of: UInt8(ascii: ":")).map { name[($0 + 1)...] } ?? name
            return String(decoding: local, as: UTF8.self).lowercased()
        }
    }
}
