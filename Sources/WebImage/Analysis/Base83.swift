/// BlurHash's base-83 digits.
enum Base83 {
    static let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~")

    /// Appends `value` as `length` digits, most significant first.
    static func append(_ value: Int, length: Int, to string: inout String) {
        var divisor = 1
        for _ in 1..<max(length, 1) { divisor *= 83 }
        for _ in 0..<length {
            string.append(digits[(value / divisor) % 83])
            divisor /= 83
        }
    }
}
