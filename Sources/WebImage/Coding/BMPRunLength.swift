/// Decodes RLE8 and RLE4 BMP pixels: runs of one index (two alternating ones for RLE4), literal runs, and the
/// end-of-line, end-of-bitmap and delta escapes.
///
/// Pixels the stream skips (with a delta, or by ending a line or the bitmap early) stay transparent, as browsers leave
/// them. A run may cover the padding of its row (the pixels up to the row's 4-byte boundary, as ImageMagick writes
/// every row: it encodes the padded row), which is dropped, as Firefox and Pillow drop what passes the row; a run past
/// that padding, a delta out of the image, or an index past the palette of a pixel drawn is
/// ``WebImageError/Code/corruptData``; a stream that ends before its end-of-bitmap escape and before its last row is
/// ``WebImageError/Code/truncatedData``.
enum BMPRunLength {
    /// Decodes the runs in `data` into `output`, which holds `header`'s pixels, all transparent.
    static func decode(
        _ header: BMPHeader, _ data: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<UInt8>
    ) throws(WebImageError) {
        let nibbles = header.bitCount == 4
        let (width, height) = (header.width, header.height)
        // The row with its padding, in pixels.
        let padded = header.stride * 8 / header.bitCount
        var (x, y, position) = (0, 0, 0)
        // Writes `count` indices of a run at the cursor, the `index(i)`th of them, those in the row's padding dropped.
        func write(_ count: Int, _ index: (Int) -> Int) throws(WebImageError) {
            guard count <= padded - x else {
                throw BMPHeader.corrupt("a run of \(count) pixels from column \(x) passes its \(width)-pixel row")
            }
            var target = (header.outputRow(y) * width + x) * 4
            for offset in 0..<min(count, max(width - x, 0)) {
                BMPPixels.put(try BMPPixels.color(index(offset), in: header.palette), output, at: target)
                target += 4
            }
            x += count
        }
        while y < height {
            guard position + 2 <= data.count else { throw BMPHeader.truncated("the run-length pixels") }
            let (first, second) = (Int(data[position]), Int(data[position + 1]))
            position += 2
            if first > 0 {
                try write(first) { nibbles ? (($0 & 1 == 0) ? second >> 4 : second & 15) : second }
                continue
            }
            switch second {
            case 0:
                (x, y) = (0, y + 1)
            case 1:
                return
            case 2:
                guard position + 2 <= data.count else { throw BMPHeader.truncated("a delta escape") }
                let (right, up) = (Int(data[position]), Int(data[position + 1]))
                position += 2
                guard right <= width - x, up <= height - y else {
                    throw BMPHeader.corrupt("a delta of (\(right), \(up)) from (\(x), \(y)) leaves the image")
                }
                (x, y) = (x + right, y + up)
            default:
                let length = nibbles ? (second + 1) / 2 : second
                guard position + length <= data.count else { throw BMPHeader.truncated("a literal run") }
                let start = position
                try write(second) { offset in
                    let byte = Int(data[start + (nibbles ? offset / 2 : offset)])
                    return nibbles ? (offset & 1 == 0 ? byte >> 4 : byte & 15) : byte
                }
                // Literal runs are padded to 16 bits.
                position += (length + 1) & ~1
            }
        }
    }
}
