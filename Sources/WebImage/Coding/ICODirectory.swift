/// The directory of an ICO or CUR file (`ICONDIR` and its entries), with each entry's bytes checked to lie in the
/// file after the directory. Icons (type 1) and cursors (type 2) differ only in the type and in two fields of each
/// entry: planes and bit count, or the cursor's hotspot.
struct ICODirectory {
    /// One image of the file.
    struct Entry {
        /// Where the image's bytes are in the file.
        let range: Range<Int>
        /// Whether the image is a PNG file; a bitmap without file header otherwise.
        let isPNG: Bool
        /// The size and bits per pixel its own header gives (the directory's, when the header is too short to say).
        let width: Int
        let height: Int
        let bitCount: Int

        /// Pixels, for choosing the largest entry.
        var area: Int {
            let (area, overflow) = width.multipliedReportingOverflow(by: height)
            return overflow ? .max : area
        }
    }

    /// The entries, in directory order; never empty.
    let entries: [Entry]

    /// The largest entry, by pixels and then bits per pixel (the first of equals).
    var best: Entry {
        entries.max { ($0.area, $0.bitCount) < ($1.area, $1.bitCount) }!
    }

    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Reads the directory of the ICO or CUR file in `bytes`.
    init(_ bytes: UnsafeRawBufferPointer) throws(WebImageError) {
        guard bytes.count >= 6 else { throw Self.truncated("the directory header") }
        let type = bytes.littleUInt16(at: 2)
        guard bytes.littleUInt16(at: 0) == 0, type == 1 || type == 2 else {
            throw WebImageError(.corruptData, "invalid ICO: the directory header is not an icon's or a cursor's")
        }
        let count = Int(bytes.littleUInt16(at: 4))
        guard count > 0 else { throw WebImageError(.corruptData, "invalid ICO: the directory lists no images") }
        let directoryEnd = 6 + 16 * count
        guard bytes.count >= directoryEnd else { throw Self.truncated("the directory of \(count) entries") }
        var entries: [Entry] = []
        for index in 0..<count {
            let field = 6 + 16 * index
            let (size, offset) = (Int(bytes.littleUInt32(at: field + 8)), Int(bytes.littleUInt32(at: field + 12)))
            guard offset >= directoryEnd else {
                throw WebImageError(.corruptData, "invalid ICO: entry \(index) starts inside the directory")
            }
            guard offset <= bytes.count, size <= bytes.count - offset else {
                throw Self.truncated("entry \(index), \(size) bytes at \(offset)")
            }
            let image = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + size)])
            let isPNG = image.starts(with: Self.pngSignature)
            // The directory's sizes are bytes, 0 meaning 256 (a cursor's has no bit count); the image's own header is exact.
            let declared = (
                bytes[field] == 0 ? 256 : Int(bytes[field]), bytes[field + 1] == 0 ? 256 : Int(bytes[field + 1]),
                type == 1 ? Int(bytes.littleUInt16(at: field + 6)) : 0
            )
            let (width, height, bitCount) = (isPNG ? Self.pngSize(image) : Self.bitmapSize(image)) ?? declared
            entries.append(
                Entry(range: offset..<(offset + size), isPNG: isPNG, width: width, height: height, bitCount: bitCount))
        }
        self.entries = entries
    }

    /// Width, height and bits per pixel from a PNG's `IHDR`.
    private static func pngSize(_ png: UnsafeRawBufferPointer) -> (Int, Int, Int)? {
        guard png.count >= 26 else { return nil }
        func big32(_ offset: Int) -> Int { (0..<4).reduce(0) { $0 << 8 | Int(png[offset + $1]) } }
        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(png[25])] ?? 4
        return (big32(16), big32(20), Int(png[24]) * channels)
    }

    /// Width, height (half the header's, which counts the AND mask) and bits per pixel from a bitmap's info header.
    private static func bitmapSize(_ bitmap: UnsafeRawBufferPointer) -> (Int, Int, Int)? {
        guard bitmap.count >= 16 else { return nil }
        if bitmap.littleUInt32(at: 0) == 12 {
            let height = Int(bitmap.littleUInt16(at: 6)) / 2
            return (Int(bitmap.littleUInt16(at: 4)), height, Int(bitmap.littleUInt16(at: 10)))
        }
        let height = Int(Int32(bitPattern: bitmap.littleUInt32(at: 8)).magnitude) / 2
        return (Int(Int32(bitPattern: bitmap.littleUInt32(at: 4))), height, Int(bitmap.littleUInt16(at: 14)))
    }

    private static func truncated(_ part: String) -> WebImageError {
        WebImageError(.truncatedData, "the ICO data ends inside \(part)")
    }
}
