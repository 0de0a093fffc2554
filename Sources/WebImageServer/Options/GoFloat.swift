/// Go's `strconv.ParseFloat(s, 64)` syntax, which imgproxy's numbers follow: an optional sign, then `inf`,
/// `infinity` or `nan` in any case, or decimal digits with an optional point and `e` exponent, or `0x` hexadecimal
/// digits with an optional point and a mandatory `p` exponent. A literal too large for a double is an error, as in
/// Go (which returns ±Inf with `ErrRange`).
enum GoFloat {
    /// The value of `text`, `nil` when Go would not parse it.
    static func parse(_ text: String) -> Double? {
        var body = Substring(text)
        let negative = body.first == "-"
        if body.first == "-" || body.first == "+" { body = body.dropFirst() }
        switch body.lowercased() {
        case "inf", "infinity": return negative ? -.infinity : .infinity
        case "nan": return text.count == 3 ? .nan : nil
        default: break
        }
        guard isNumber(body) else { return nil }
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// Whether `body` (without its sign) is a decimal or hexadecimal literal.
    private static func isNumber(_ body: Substring) -> Bool {
        let bytes = Array(body.utf8)
        var index = 0
        let hex = bytes.count > 2 && bytes[0] == 0x30 && (bytes[1] | 0x20) == 0x78
        if hex { index = 2 }
        func isDigit(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || (hex && (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66)
        }
        var digits = 0
        while index < bytes.count, isDigit(bytes[index]) { (index, digits) = (index + 1, digits + 1) }
        if index < bytes.count, bytes[index] == 0x2E {
            index += 1
            while index < bytes.count, isDigit(bytes[index]) { (index, digits) = (index + 1, digits + 1) }
        }
        guard digits > 0 else { return false }
        guard index < bytes.count else { return !hex }
        guard (bytes[index] | 0x20) == (hex ? 0x70 : 0x65) else { return false }
        index += 1
        if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D { index += 1 }
        let exponentStart = index
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
        return index > exponentStart && index == bytes.count
    }
}
