/// What a JPEG's marker structure says about a file the decoder refused: TurboJPEG reports running out of data
/// only as a message, so whether a file was cut short is read from the bytes instead.
enum JPEGStructure {
    /// Whether `bytes` start as a JPEG and end before its end-of-image marker: the segments are walked by their
    /// lengths and the entropy-coded data is scanned to its next marker, so an `FFD9` inside a segment (an EXIF
    /// thumbnail) does not count. A file that breaks the structure before its end is corrupt, not truncated.
    static func isTruncated(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let count = bytes.count
        guard count >= 2 else { return true }
        guard bytes[0] == 0xFF, bytes[1] == 0xD8 else { return false }
        var index = 2
        while true {
            guard index < count else { return true }
            guard bytes[index] == 0xFF else { return false }
            while index < count, bytes[index] == 0xFF { index += 1 }
            guard index < count else { return true }
            let marker = bytes[index]
            index += 1
            switch marker {
            case 0xD9: return false
            case 0x01, 0xD0...0xD7: continue
            default:
                guard index + 1 < count else { return true }
                let length = Int(bytes[index]) << 8 | Int(bytes[index + 1])
                guard length >= 2 else { return false }
                index += length
                if marker == 0xDA {
                    index = nextMarker(in: bytes, from: index)
                }
            }
        }
    }

    /// The index of the next marker after entropy-coded data (`FF` followed by neither `00` nor a restart marker),
    /// or `bytes.count` when the data ends first.
    private static func nextMarker(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var index = start
        while index + 1 < bytes.count {
            if bytes[index] == 0xFF {
                let next = bytes[index + 1]
                if next != 0x00, next != 0xFF, !(0xD0...0xD7).contains(next) { return index }
            }
            index += 1
        }
        return bytes.count
    }
}
