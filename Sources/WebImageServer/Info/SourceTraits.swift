import Foundation

/// What a source's header says about its samples, as libvips (and so imgproxy) reports them: the colour space
/// (`srgb`, `b-w`, `cmyk`), the number of bands and the sample format (`uchar`, `ushort`).
struct SourceTraits: Sendable, Hashable {
    var colorspace = "srgb"
    var bands = 3
    var sampleFormat = "uchar"
    /// Whether there is an alpha band (CMYK's fourth band is not one).
    var hasAlpha: Bool

    /// The traits of `data`; `hasAlpha` (from the decoder's header information) decides the bands of formats whose
    /// headers are not read here.
    init(_ data: Data, hasAlpha: Bool) {
        self.hasAlpha = hasAlpha
        bands = hasAlpha ? 4 : 3
        let bytes = [UInt8](data.prefix(1 << 16))
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), bytes.count >= 26 {
            // IHDR: bit depth at 24, colour type at 25.
            let (depth, type) = (bytes[24], bytes[25])
            let hasTransparency = Self.pngHasTRNS(bytes)
            switch type {
            case 0: (colorspace, bands) = ("b-w", hasTransparency ? 2 : 1)
            case 4: (colorspace, bands) = ("b-w", 2)
            case 2: bands = hasTransparency ? 4 : 3
            case 3: bands = hasTransparency ? 4 : 3
            default: bands = 4
            }
            self.hasAlpha = bands == 2 || bands == 4
            if depth == 16 { sampleFormat = "ushort" }
            if depth == 16, colorspace == "srgb" { colorspace = "rgb16" }
            if depth == 16, colorspace == "b-w" { colorspace = "grey16" }
        } else if bytes.starts(with: [0xFF, 0xD8]), let components = Self.jpegComponents(bytes) {
            switch components {
            case 1: (colorspace, bands) = ("b-w", 1)
            case 4: (colorspace, bands) = ("cmyk", 4)
            default: bands = 3
            }
            self.hasAlpha = false
        }
    }

    private static func pngHasTRNS(_ bytes: [UInt8]) -> Bool {
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            if type == "tRNS" { return true }
            if type == "IDAT" || type == "IEND" { return false }
            let (next, overflow) = offset.addingReportingOverflow(12 &+ length)
            guard !overflow, length >= 0 else { return false }
            offset = next
        }
        return false
    }

    /// The component count of the JPEG's frame header (SOFn), read segment by segment.
    private static func jpegComponents(_ bytes: [UInt8]) -> Int? {
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            if marker == 0xFF {
                offset += 1
                continue
            }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                return offset + 9 < bytes.count ? Int(bytes[offset + 9]) : nil
            }
            guard length >= 2 else { return nil }
            offset += 2 + length
        }
        return nil
    }
}
