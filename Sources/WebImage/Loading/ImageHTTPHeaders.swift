/// An ordered list of HTTP header fields with case-insensitive lookup, independent of any HTTP library.
public struct ImageHTTPHeaders: Hashable, Sendable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// The fields in order; a name may repeat.
    public private(set) var fields: [(name: String, value: String)]

    /// Creates headers from `fields`.
    public init(_ fields: [(name: String, value: String)] = []) { self.fields = fields }

    /// Headers from `["Name": "value", …]`, in the order written.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The first value of `name`; setting replaces every field of that name (`nil` removes them).
    public subscript(name: String) -> String? {
        get { fields.first { $0.name.caseInsensitiveEquals(name) }?.value }
        set {
            remove(name)
            if let newValue { fields.append((name: name, value: newValue)) }
        }
    }

    /// Appends a field, keeping any of the same name.
    public mutating func add(name: String, value: String) { fields.append((name: name, value: value)) }

    /// Removes every field named `name`.
    public mutating func remove(_ name: String) { fields.removeAll { $0.name.caseInsensitiveEquals(name) } }

    /// Whether a field named `name` is present.
    public func contains(_ name: String) -> Bool { self[name] != nil }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }

    public static func == (lhs: ImageHTTPHeaders, rhs: ImageHTTPHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name.caseInsensitiveEquals($1.name) && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        for field in fields {
            for byte in field.name.utf8 { hasher.combine(byte.asciiLowercased) }
            hasher.combine(0xFF as UInt8)
            hasher.combine(field.value)
        }
    }

    public var description: String { fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n") }
}

extension String {
    /// Equal ignoring ASCII case, as HTTP field names compare; no allocation.
    func caseInsensitiveEquals(_ other: String) -> Bool {
        utf8.count == other.utf8.count && utf8.elementsEqual(other.utf8) { $0.asciiLowercased == $1.asciiLowercased }
    }
}

extension UInt8 {
    /// `A`–`Z` mapped to `a`–`z`; every other byte unchanged.
    var asciiLowercased: UInt8 { self >= 0x41 && self <= 0x5A ? self | 0x20 : self }
}
