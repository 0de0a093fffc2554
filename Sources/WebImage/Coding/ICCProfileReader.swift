import Foundation

/// Finds embedded ICC profiles in containers whose decoders do not hand them out.
enum ICCProfileReader {
    /// The largest profile accepted: real ones are a few kilobytes, CMYK ones a few hundred.
    static let maxSize = 16 << 20

    /// The ICC profile of a JPEG: the payloads of its `APP2` `ICC_PROFILE` segments, joined in sequence order.
    ///
    /// Returns `nil` when there is none, or when the segments are inconsistent (a missing or repeated part), as
    /// libjpeg-turbo's `jpeg_read_icc_profile` does.
    static func jpeg(_ jpeg: UnsafeRawBufferPointer) -> Data? {
        let signature = Array("ICC_PROFILE".utf8) + [0]
        var parts: [Int: UnsafeRawBufferPointer] = [:]
        var expected = 0
        var offset = 2
        guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return nil }
        while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF {
            let marker = jpeg[offset + 1]
            if marker == 0xFF {
                offset += 1
                continue
            }
            if marker == 0xDA || marker == 0xD9 { break }
            let length = Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])
            guard length >= 2, offset + 2 + length <= jpeg.count else { break }
            let payload = UnsafeRawBufferPointer(rebasing: jpeg[(offset + 4)..<(offset + 2 + length)])
            if marker == 0xE2, payload.count > 14, payload.starts(with: signature) {
                let (sequence, count) = (Int(payload[12]), Int(payload[13]))
                guard sequence >= 1, count >= 1, sequence <= count, expected == 0 || expected == count,
                    parts[sequence] == nil
                else { return nil }
                expected = count
                parts[sequence] = UnsafeRawBufferPointer(rebasing: payload[14...])
            }
            offset += 2 + length
        }
        guard expected > 0, parts.count == expected else { return nil }
        var profile = Data()
        for sequence in 1...expected {
            guard let part = parts[sequence], profile.count + part.count <= maxSize else { return nil }
            profile.append(contentsOf: part)
        }
        return profile
    }
}
