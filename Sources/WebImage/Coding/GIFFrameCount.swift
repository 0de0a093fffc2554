/// The number of frames of a GIF, from its block structure alone: the image descriptors between the header and the
/// trailer, each skipped with its sub-blocks, no pixel decoded. What ``ImageInfo/frameCount`` says for a GIF.
enum GIFFrameCount {
    /// The image descriptors of `bytes` up to the trailer or the end; at least 1. A descriptor whose data is cut
    /// short counts when the decoder would keep it: the first always.
    static func count(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard bytes.count >= 13 else { return 1 }
        var offset = 13
        let flags = bytes[10]
        if flags & 0x80 != 0 { offset += 3 << (Int(flags & 0x07) + 1) }
        var frames = 0
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x21:
                // Extension: introducer, label, then sub-blocks.
                guard let next = skipSubBlocks(bytes, from: offset + 2) else { return max(frames, 1) }
                offset = next
            case 0x2C:
                // Image descriptor: 10 bytes, a local colour table, the LZW code size, then sub-blocks.
                guard offset + 10 <= bytes.count else { return max(frames, 1) }
                let local = bytes[offset + 9]
                var next = offset + 10
                if local & 0x80 != 0 { next += 3 << (Int(local & 0x07) + 1) }
                guard let end = skipSubBlocks(bytes, from: next + 1) else { return max(frames, 1) }
                frames += 1
                offset = end
            default:
                // The trailer (0x3B), or bytes that are not a block: the frames so far.
                return max(frames, 1)
            }
        }
        return max(frames, 1)
    }

    /// The offset after the sub-blocks starting at `offset` and their terminator; `nil` when they run past the end.
    private static func skipSubBlocks(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        var offset = start
        while offset < bytes.count {
            let size = Int(bytes[offset])
            offset += 1
            if size == 0 { return offset }
            offset += size
        }
        return nil
    }
}
