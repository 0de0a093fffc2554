import Foundation

/// The copyright and author of an EXIF block, kept alone when the rest of the metadata is stripped (imgproxy's
/// `keep_copyright`): a new little-endian TIFF structure whose first IFD holds only the `Artist` (0x013B) and
/// `Copyright` (0x8298) tags of the source's first IFD.
enum EXIFCopyright {
    /// The tags kept, in ascending order as TIFF wants them.
    static let tags = [0x013B, 0x8298]
    /// The longest value kept per tag.
    static let maxValueLength = 4096

    /// The block of `exif`'s copyright tags (a TIFF structure, with or without the `Exif\0\0` prefix); `nil` when it
    /// has neither or is unreadable.
    static func block(from exif: Data) -> Data? {
        let values: [(tag: Int, value: [UInt8])] = exif.withUnsafeBytes { raw in
            let tiff = EXIFReader.withoutPrefix(raw)
            return tags.compactMap { tag in value(of: tag, in: tiff).map { (tag, $0) } }
        }
        guard !values.isEmpty else { return nil }
        var block: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0]
        let entriesEnd = 8 + 2 + values.count * 12 + 4
        var data: [UInt8] = []
        append16(values.count, to: &block)
        for (tag, value) in values {
            append16(tag, to: &block)
            append16(2, to: &block)  // ASCII
            append32(value.count, to: &block)
            if value.count <= 4 {
                block += value + [UInt8](repeating: 0, count: 4 - value.count)
            } else {
                append32(entriesEnd + data.count, to: &block)
                data += value
                if data.count % 2 == 1 { data.append(0) }
            }
        }
        append32(0, to: &block)  // no next IFD
        return Data(block + data)
    }

    /// The ASCII value of `tag` in the first IFD of `tiff`, NUL-terminated; `nil` when absent, of another type or
    /// out of bounds.
    static func value(of tag: Int, in tiff: UnsafeRawBufferPointer) -> [UInt8]? {
        guard tiff.count >= 8 else { return nil }
        let littleEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        func read(_ offset: Int, _ width: Int) -> Int? {
            guard offset >= 0, width <= tiff.count, offset <= tiff.count - width else { return nil }
            var value = 0
            for index in 0..<width {
                let byte = Int(tiff[offset + (littleEndian ? width - 1 - index : index)])
                value = value << 8 | byte
            }
            return value
        }
        guard let ifd = read(4, 4), let count = read(ifd, 2) else { return nil }
        for entry in 0..<min(count, 1024) {
            let offset = ifd + 2 + entry * 12
            guard let found = read(offset, 2) else { return nil }
            guard found == tag else { continue }
            guard read(offset + 2, 2) == 2, let length = read(offset + 4, 4), length > 0, length <= maxValueLength
            else { return nil }
            let start = length <= 4 ? offset + 8 : read(offset + 8, 4) ?? -1
            guard start >= 0, start <= tiff.count - length else { return nil }
            var bytes = Array(tiff[start..<start + length])
            if let end = bytes.firstIndex(of: 0) { bytes.removeSubrange(end...) }
            return bytes.isEmpty ? nil : bytes + [0]
        }
        return nil
    }

    private static func append16(_ value: Int, to bytes: inout [UInt8]) {
        bytes += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)]
    }

    private static func append32(_ value: Int, to bytes: inout [UInt8]) {
        bytes += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24 & 0xFF)]
    }
}
