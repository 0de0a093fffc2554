import Foundation

/// Self-checking payloads for cache tests: any prefix, truncation or mix of two payloads fails ``isIntact(_:)``.
///
/// Layout: the total length (8 bytes, little-endian), a seed byte, then bytes `seed &+ index`.
public enum CacheTestPayload {
    /// A payload of `size` bytes (at least 9) derived from `seed`.
    public static func make(size: Int, seed: UInt8) -> Data {
        precondition(size >= 9)
        var bytes = [UInt8](repeating: 0, count: size)
        for index in 0..<8 { bytes[index] = UInt8(truncatingIfNeeded: UInt64(size) >> (8 * UInt64(index))) }
        bytes[8] = seed
        for index in 9..<size { bytes[index] = seed &+ UInt8(truncatingIfNeeded: index) }
        return Data(bytes)
    }

    /// Whether `data` is a complete payload made by ``make(size:seed:)``.
    public static func isIntact(_ data: Data) -> Bool {
        guard data.count >= 9 else { return false }
        return data.withUnsafeBytes { bytes in
            var length: UInt64 = 0
            for index in 0..<8 { length |= UInt64(bytes[index]) << (8 * UInt64(index)) }
            guard length == UInt64(bytes.count) else { return false }
            let seed = bytes[8]
            for index in 9..<bytes.count where bytes[index] != seed &+ UInt8(truncatingIfNeeded: index) {
                return false
            }
            return true
        }
    }
}
