import Foundation

/// One page of a ListObjectsV2 answer: the keys and the token of the next page. A small reader of the few elements it
/// needs, so the target does not depend on an XML library.
struct S3ListPage: Sendable {
    /// The object keys on this page, in the store's order.
    let keys: [String]
    /// The `NextContinuationToken`, when the listing is truncated.
    let nextToken: String?

    init(xml: Data) {
        let text = String(decoding: xml, as: UTF8.self)
        keys = Self.values(of: "Key", in: text)
        let truncated = Self.values(of: "IsTruncated", in: text).first == "true"
        nextToken = truncated ? Self.values(of: "NextContinuationToken", in: text).first : nil
    }

    /// The text of every `<name>…</name>` element, unescaped.
    static func values(of name: String, in text: String) -> [String] {
        let open = "<\(name)>"
        let close = "</\(name)>"
        var values: [String] = []
        var rest = text[...]
        while let start = rest.range(of: open), let end = rest[start.upperBound...].range(of: close) {
            values.append(unescaped(String(rest[start.upperBound..<end.lowerBound])))
            rest = rest[end.upperBound...]
        }
        return values
    }

    /// XML's five predefined entities and numeric character references.
    static func unescaped(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = text[...]
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            guard let semicolon = rest[ampersand...].firstIndex(of: ";") else { break }
            let entity = rest[rest.index(after: ampersand)..<semicolon]
            switch entity {
            case "amp": result += "&"
            case "lt": result += "<"
            case "gt": result += ">"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                let number =
                    entity.hasPrefix("#x")
                    ? UInt32(entity.dropFirst(2), radix: 16) : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
                if let number, let scalar = Unicode.Scalar(number) {
                    result.unicodeScalars.append(scalar)
                } else {
                    result += rest[ampersand...semicolon]
                }
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }
}
