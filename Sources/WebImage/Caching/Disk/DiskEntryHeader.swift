import Foundation

/// The binary header at the start of every disk cache file, followed directly by the payload.
///
/// Layout, little-endian: magic `SWIC` (4), version u16, reserved u16, header length u32, reserved u32,
/// payload length u64, created (Float64 seconds since 1970) u64, expires (Float64, NaN for none) u64, then four
/// strings (key, format, ETag, Last-Modified), each a u32 length (`0xFFFF_FFFF` for none) and UTF-8 bytes; version 2
/// adds two strings (the HTTP `Cache-Control` and `Expires`). An entry with neither is written as version 1, so a
/// cache stays readable by the versions before them; both versions are read.
/// A file is valid only if its size is exactly header length + payload length and the stored key matches.
struct DiskEntryHeader: Equatable {
    static let magic: [UInt8] = Array("SWIC".utf8)
    /// The version of a header without the freshness strings.
    static let version: UInt16 = 1
    /// The version of a header with them.
    static let freshnessVersion: UInt16 = 2
    /// The fixed part, up to the strings.
    static let fixedLength = 40
    /// Headers larger than this are refused as corrupt (keys and validators are short).
    static let maxLength = 1 << 20

    var headerLength: Int
    var payloadLength: Int
    var created: Date
    var expires: Date?
    var key: String
    var format: ImageFormat
    var etag: String?
    var lastModified: String?
    var cacheControl: String?
    var expiresHeader: String?

    init(
        payloadLength: Int, created: Date, expires: Date?, key: String, format: ImageFormat, etag: String?,
        lastModified: String?, cacheControl: String? = nil, expiresHeader: String? = nil
    ) {
        self.payloadLength = payloadLength
        self.created = created
        self.expires = expires
        self.key = key
        self.format = format
        self.etag = etag
        self.lastModified = lastModified
        self.cacheControl = cacheControl
        self.expiresHeader = expiresHeader
        headerLength = 0
        headerLength = encoded().count
    }

    /// The header's bytes.
    func encoded() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(Self.fixedLength + key.utf8.count + 64)
        let freshness = cacheControl != nil || expiresHeader != nil
        out += Self.magic
        append(UInt64(freshness ? Self.freshnessVersion : Self.version), bytes: 2, to: &out)
        append(0, bytes: 2, to: &out)
        append(UInt64(headerLength), bytes: 4, to: &out)
        append(0, bytes: 4, to: &out)
        append(UInt64(payloadLength), bytes: 8, to: &out)
        append(created.timeIntervalSince1970.bitPattern, bytes: 8, to: &out)
        append((expires?.timeIntervalSince1970 ?? .nan).bitPattern, bytes: 8, to: &out)
        for string in [key, format.name, etag, lastModified] + (freshness ? [cacheControl, expiresHeader] : []) {
            if let string {
                append(UInt64(string.utf8.count), bytes: 4, to: &out)
                out += string.utf8
            } else {
                append(0xFFFF_FFFF, bytes: 4, to: &out)
            }
        }
        return out
    }

    /// The header length announced by the fixed part, or `nil` if the magic or version is wrong.
    static func announcedLength(_ fixed: UnsafeRawBufferPointer) -> Int? {
        guard fixed.count >= fixedLength, fixed.prefix(4).elementsEqual(magic),
            [UInt64(version), UInt64(freshnessVersion)].contains(read(fixed, at: 4, bytes: 2))
        else { return nil }
        let length = Int(read(fixed, at: 8, bytes: 4))
        return (fixedLength...maxLength).contains(length) ? length : nil
    }

    /// Parses a whole header, or returns `nil` if it is malformed.
    init?(parsing bytes: UnsafeRawBufferPointer) {
        guard let length = Self.announcedLength(bytes), bytes.count >= length else { return nil }
        let payload = Self.read(bytes, at: 16, bytes: 8)
        guard payload <= UInt64(Int.max) else { return nil }
        headerLength = length
        payloadLength = Int(payload)
        created = Date(timeIntervalSince1970: Double(bitPattern: Self.read(bytes, at: 24, bytes: 8)))
        let expiry = Double(bitPattern: Self.read(bytes, at: 32, bytes: 8))
        expires = expiry.isNaN ? nil : Date(timeIntervalSince1970: expiry)
        var offset = Self.fixedLength
        var strings: [String?] = []
        let stringCount = Self.read(bytes, at: 4, bytes: 2) == UInt64(Self.freshnessVersion) ? 6 : 4
        for _ in 0..<stringCount {
            guard offset + 4 <= length else { return nil }
            let count = Self.read(bytes, at: offset, bytes: 4)
            offset += 4
            if count == 0xFFFF_FFFF {
                strings.append(nil)
                continue
            }
            guard offset + Int(count) <= length else { return nil }
            let slice = UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + Int(count)])
            strings.append(String(decoding: slice, as: UTF8.self))
            offset += Int(count)
        }
        guard offset == length, let key = strings[0], let format = strings[1] else { return nil }
        self.key = key
        self.format = ImageFormat(format)
        etag = strings[2]
        lastModified = strings[3]
        cacheControl = stringCount == 6 ? strings[4] : nil
        expiresHeader = stringCount == 6 ? strings[5] : nil
    }

    private func append(_ value: UInt64, bytes: Int, to out: inout [UInt8]) {
        for index in 0..<bytes { out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
    }

    private static func read(_ buffer: UnsafeRawBufferPointer, at offset: Int, bytes: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<bytes { value |= UInt64(buffer[offset + index]) << (8 * UInt64(index)) }
        return value
    }
}
