import Foundation

extension ImageFormat {
    /// Identifies the format of encoded image bytes from their leading magic bytes.
    ///
    /// Recognises JPEG, PNG (and APNG), GIF, WebP, HEIC, AVIF, JPEG XL (a bare codestream, `FF 0A`, or the container's
    /// `JXL ` signature box), BMP (`BM` and a known info header size), ICO and CUR (a directory of type 1 or 2 listing
    /// at least one image), TIFF and BigTIFF (either byte order), and SVG (`SVGSniffer`: an `<svg` root element after
    /// any XML declaration, comments, processing instructions and doctype, within the first 32 KiB). Returns
    /// ``unknown`` otherwise.
    public static func sniff(_ data: Data) -> ImageFormat {
        data.withUnsafeBytes { sniff(UnsafeRawBufferPointer($0)) }
    }

    /// Identifies the format of the bytes in `bytes`; see ``sniff(_:)-(Data)``.
    public static func sniff(_ bytes: UnsafeRawBufferPointer) -> ImageFormat {
        func starts(with magic: [UInt8], at offset: Int = 0) -> Bool {
            guard bytes.count >= offset + magic.count else { return false }
            for (index, byte) in magic.enumerated() where bytes[offset + index] != byte { return false }
            return true
        }
        if starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(with: Array("GIF87a".utf8)) || starts(with: Array("GIF89a".utf8)) { return .gif }
        if starts(with: Array("RIFF".utf8)) && starts(with: Array("WEBP".utf8), at: 8) { return .webp }
        if starts(with: [0x49, 0x49, 0x2A, 0x00]) || starts(with: [0x4D, 0x4D, 0x00, 0x2A])
            || starts(with: [0x49, 0x49, 0x2B, 0x00]) || starts(with: [0x4D, 0x4D, 0x00, 0x2B])
        {
            return .tiff
        }
        if starts(with: [0xFF, 0x0A])
            || starts(with: [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A])
        {
            return .jxl
        }
        if starts(with: Array("ftyp".utf8), at: 4), bytes.count >= 12 {
            let brand = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[8..<12]), as: UTF8.self)
            if brand == "avif" || brand == "avis" { return .avif }
            // A generic HEIF major brand names the codec among the compatible brands (after the minor version).
            if brand == "mif1" || brand == "msf1" {
                let boxSize = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
                var offset = 16
                while offset + 4 <= min(boxSize, bytes.count, 256) {
                    let compatible = String(
                        decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + 4)]), as: UTF8.self)
                    if compatible == "avif" || compatible == "avis" { return .avif }
                    offset += 4
                }
            }
            if ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"].contains(brand) { return .heic }
        }
        if starts(with: Array("BM".utf8)), bytes.count >= 26 {
            let size = bytes.littleUInt32(at: 14)
            if size == 12 || (16...64).contains(size) || size == 108 || size == 124 { return .bmp }
        }
        if starts(with: [0x00, 0x00, 0x01, 0x00]) || starts(with: [0x00, 0x00, 0x02, 0x00]), bytes.count >= 6,
            bytes.littleUInt16(at: 4) > 0
        {
            return .ico
        }
        if SVGSniffer.isSVG(bytes) { return .svg }
        return .unknown
    }
}
