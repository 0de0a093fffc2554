import Foundation

/// The headers of a BMP image: a file's `BITMAPFILEHEADER` and info header, or the bare info header of the bitmap in
/// an ICO or CUR entry; then its channel masks and palette.
///
/// Reads OS/2 1.x (`BITMAPCOREHEADER`, 12 bytes) and 2.x (16 to 64 bytes) headers, and Windows' `BITMAPINFOHEADER`
/// (40 bytes) and its V2 (52), V3 (56), V4 (108) and V5 (124) extensions. Every number is checked here, before it
/// becomes a size or an index: the pixel readers then stay within the bytes.
struct BMPHeader {
    /// How the pixels are stored.
    enum Storage: Equatable {
        /// 1, 2, 4 or 8 bits of palette index per pixel.
        case indexed
        /// RLE8 or RLE4 runs of palette indices (``BMPHeader/bitCount`` says which).
        case runLength
        /// 24-bit BGR.
        case bgr
        /// 16 or 32 bits per pixel, the channels picked out by masks (`BI_RGB` 16- and 32-bit pixels included).
        case masked(BMPMasks)
    }

    /// The width in pixels.
    let width: Int
    /// The height in pixels (for an icon, of the colour bitmap alone, without its AND mask).
    let height: Int
    /// Whether the first stored row is the top one (a negative height); rows are bottom-up otherwise.
    let topDown: Bool
    /// Bits per pixel.
    let bitCount: Int
    /// How the pixels are stored.
    let storage: Storage
    /// The colours of palette indices, for indexed and run-length pixels.
    let palette: [RGBA]
    /// Where the pixels start in the bytes.
    let pixelOffset: Int
    /// Bytes per stored row of uncompressed pixels, padded to 4 bytes.
    let stride: Int
    /// Where a V5 header's embedded ICC profile is (`PROFILE_EMBEDDED`), not yet checked against the bytes.
    private let profileLocation: (offset: Int, size: Int)?

    /// `PROFILE_EMBEDDED`, `'MBED'`, in a V4 or V5 header's colour-space type.
    static let embeddedProfile: UInt32 = 0x4D42_4544
    /// `LCS_sRGB`, `'sRGB'`.
    static let sRGB: UInt32 = 0x7352_4742

    /// Whether pixels may be transparent: an alpha channel, or runs that skip pixels (left transparent).
    var mayHaveAlpha: Bool {
        switch storage {
        case .runLength: true
        case .masked(let masks): masks.alpha.bits > 0
        case .indexed, .bgr: false
        }
    }

    /// Reads a BMP file's headers: the `BM` file header, the info header, masks and palette.
    init(file bytes: UnsafeRawBufferPointer) throws(WebImageError) {
        guard bytes.count >= 18 else { throw Self.truncated("the file header") }
        guard bytes[0] == 0x42, bytes[1] == 0x4D else { throw Self.corrupt("the file does not start with BM") }
        let dataOffset = Int(bytes.littleUInt32(at: 10))
        try self.init(bytes, at: 14, dataOffset: dataOffset == 0 ? nil : dataOffset, icon: false)
    }

    /// Reads the bitmap header of an ICO or CUR entry: no file header, pixels right after the palette, and a height
    /// that counts the AND mask as well as the colour bitmap.
    init(icon bytes: UnsafeRawBufferPointer) throws(WebImageError) {
        try self.init(bytes, at: 0, dataOffset: nil, icon: true)
    }

    private init(_ bytes: UnsafeRawBufferPointer, at base: Int, dataOffset: Int?, icon: Bool) throws(WebImageError) {
        guard bytes.count >= base + 4 else { throw Self.truncated("the info header") }
        let size = Int(bytes.littleUInt32(at: base))
        let core = size == 12
        let windows = [40, 52, 56, 108, 124].contains(size)
        guard core || windows || (16...64).contains(size) else {
            throw Self.corrupt("an info header of \(size) bytes is none of the known ones")
        }
        guard bytes.count >= base + size else { throw Self.truncated("the \(size)-byte info header") }
        // OS/2 2.x headers may stop after any field; the fields they leave out are zero.
        func field(_ offset: Int) -> UInt32 { offset + 4 <= size ? bytes.littleUInt32(at: base + offset) : 0 }
        let rawWidth: Int
        let rawHeight: Int
        if core {
            (rawWidth, rawHeight) = (Int(bytes.littleUInt16(at: base + 4)), Int(bytes.littleUInt16(at: base + 6)))
            bitCount = Int(bytes.littleUInt16(at: base + 10))
        } else {
            rawWidth = Int(Int32(bitPattern: field(4)))
            rawHeight = Int(Int32(bitPattern: field(8)))
            bitCount = Int(bytes.littleUInt16(at: base + 14))
        }
        guard rawWidth > 0, rawHeight != 0 else {
            throw WebImageError(.corruptData, "the BMP header declares an empty \(rawWidth)x\(rawHeight) image")
        }
        width = rawWidth
        topDown = rawHeight < 0
        let rows = Int(rawHeight.magnitude)
        height = icon ? rows / 2 : rows
        guard height > 0 else { throw Self.corrupt("the icon bitmap is \(rawHeight) rows high: no room for a mask") }

        let compression = core ? 0 : field(16)
        var maskBytes = 0
        switch compression {
        case 0:
            switch bitCount {
            case 1, 2, 4, 8: storage = .indexed
            case 24: storage = .bgr
            case 16 where !core: storage = .masked(.rgb555)
            case 32 where !core: storage = .masked(.bgra)
            default: throw Self.corrupt("\(bitCount) bits per pixel")
            }
        case 1 where bitCount == 8, 2 where bitCount == 4:
            guard !topDown else { throw Self.corrupt("run-length pixels cannot be stored top-down") }
            storage = .runLength
        case 1, 2:
            throw Self.corrupt("RLE\(compression == 1 ? 8 : 4) with \(bitCount) bits per pixel")
        case 3 where windows, 6 where windows:
            guard bitCount == 16 || bitCount == 32 else { throw Self.corrupt("bit fields with \(bitCount) bits") }
            let red: UInt32
            let green: UInt32
            let blue: UInt32
            let alpha: UInt32
            if size >= 52 {
                (red, green, blue, alpha) = (field(40), field(44), field(48), field(52))
            } else {
                maskBytes = compression == 6 ? 16 : 12
                let start = base + size
                guard bytes.count >= start + maskBytes else { throw Self.truncated("the channel masks") }
                red = bytes.littleUInt32(at: start)
                green = bytes.littleUInt32(at: start + 4)
                blue = bytes.littleUInt32(at: start + 8)
                alpha = compression == 6 ? bytes.littleUInt32(at: start + 12) : 0
            }
            storage = .masked(try BMPMasks(red: red, green: green, blue: blue, alpha: alpha, bitCount: bitCount))
        case 3:
            throw WebImageError(.unsupportedFormat, "OS/2 BMP with Huffman 1D compression is not supported")
        case 4 where !windows:
            throw WebImageError(.unsupportedFormat, "OS/2 BMP with RLE24 compression is not supported")
        case 4, 5:
            let kind = compression == 4 ? "JPEG" : "PNG"
            throw WebImageError(.unsupportedFormat, "BMP with \(kind) pixels is not supported")
        case 11, 12, 13:
            throw WebImageError(.unsupportedFormat, "CMYK BMP is not supported")
        default:
            throw Self.corrupt("unknown compression \(compression)")
        }

        // The colour table: the palette of indexed pixels; optional (and skipped) for others.
        let tableStart = base + size + maskBytes
        let entrySize = core ? 3 : 4
        let declared = core ? 0 : Int(field(32))
        let entries: Int
        if bitCount <= 8 {
            let colors = 1 << bitCount
            entries = declared == 0 || declared > colors ? colors : declared
        } else {
            entries = icon ? declared : 0
        }
        let tableEnd = tableStart + entries * entrySize
        if let dataOffset, dataOffset < tableEnd {
            throw Self.corrupt("the pixels at \(dataOffset) overlap the headers and palette, which end at \(tableEnd)")
        }
        if bitCount <= 8 {
            guard bytes.count >= tableEnd else { throw Self.truncated("the \(entries)-colour palette") }
            palette = (0..<entries).map { index in
                let entry = tableStart + index * entrySize
                return RGBA(red: bytes[entry + 2], green: bytes[entry + 1], blue: bytes[entry])
            }
        } else {
            palette = []
        }
        pixelOffset = dataOffset ?? tableEnd

        let (bits, overflow) = width.multipliedReportingOverflow(by: bitCount)
        guard !overflow else { throw Self.corrupt("rows of \(width) pixels of \(bitCount) bits overflow") }
        stride = (bits + 31) / 32 * 4

        if size == 124, field(56) == Self.embeddedProfile {
            profileLocation = (base + Int(field(112)), Int(field(116)))
        } else {
            profileLocation = nil
        }
    }

    /// The row of the decoded (top-down) image that stored row `stored` is.
    func outputRow(_ stored: Int) -> Int { topDown ? stored : height - 1 - stored }

    /// The embedded ICC profile of a V5 header, checked against `bytes`.
    func profile(in bytes: UnsafeRawBufferPointer) throws(WebImageError) -> Data? {
        guard let (offset, size) = profileLocation else { return nil }
        guard size > 0, size <= ICCProfileReader.maxSize else {
            throw Self.corrupt("an embedded ICC profile of \(size) bytes")
        }
        guard offset + size <= bytes.count else { throw Self.truncated("the embedded ICC profile") }
        return Data(bytes[offset..<(offset + size)])
    }

    /// The error for bytes that end inside `part`.
    static func truncated(_ part: String) -> WebImageError {
        WebImageError(.truncatedData, "the BMP data ends inside \(part)")
    }

    /// The error for an impossible header value.
    static func corrupt(_ reason: String) -> WebImageError {
        WebImageError(.corruptData, "invalid BMP: \(reason)")
    }
}
