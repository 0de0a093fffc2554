import Foundation
import Testing

@testable import WebImage

/// The loader limits that libvips' `unlimited` lifts (imgproxy's `IMGPROXY_PNG_UNLIMITED`, `IMGPROXY_TIFF_UNLIMITED`,
/// `IMGPROXY_SVG_UNLIMITED`): each refuses a file by default and reads it when lifted.
@Suite struct UnlimitedLoaderTests {
    /// A 4×4 PNG with a 65 MiB `tEXt` chunk after its header: over libspng's 64 MiB chunk limits.
    static func pngWithAHugeText() throws -> Data {
        let pixels = PixelBuffer(width: 4, height: 4, filledWith: RGBA(red: 10, green: 20, blue: 30))
        var png = try ImageCoders.default.encode(Image(pixels: pixels), as: .png, options: .default)
        var chunk = Data()
        PNGChunks.append("tEXt", Array("Comment\0".utf8) + [UInt8](repeating: 0x61, count: 65 << 20), to: &chunk)
        png.insert(contentsOf: chunk, at: png.startIndex + 33)
        return png
    }

    @Test func pngChunkLimitsAreLiftedByUnlimited() throws {
        let png = try Self.pngWithAHugeText()
        #expect(throws: WebImageError.self) { try PNGCoder().decode(png, options: .default) }
        let image = try PNGCoder(unlimited: true).decode(png, options: .default)
        #expect(image.size == PixelSize(width: 4, height: 4) && image.pixels[1, 1].blue == 30)
    }

    /// A little-endian grey TIFF, 1 pixel wide and `rows` high, one row per strip: its strip arrays take more than
    /// 1 MiB once libtiff reads them (8 bytes an entry), its pixels less.
    static func tiffWithManyStrips(rows: Int) -> Data {
        var bytes: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0]
        func short(_ value: Int) { bytes += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func long(_ value: Int) {
            for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(value >> shift & 0xFF)) }
        }
        let entries = 9
        let offsets = 8 + 2 + entries * 12 + 4
        let counts = offsets + rows * 4
        let pixels = counts + rows * 4
        short(entries)
        // Tag, type (3 SHORT, 4 LONG), count, value or offset; in tag order.
        for (tag, type, count, value) in [
            (256, 3, 1, 1), (257, 4, 1, rows), (258, 3, 1, 8), (259, 3, 1, 1), (262, 3, 1, 1), (273, 4, rows, offsets),
            (277, 3, 1, 1), (278, 4, 1, 1), (279, 4, rows, counts),
        ] {
            short(tag)
            short(type)
            long(count)
            long(value)
        }
        long(0)
        for row in 0..<rows { long(pixels + row) }
        for _ in 0..<rows { long(1) }
        bytes += [UInt8](repeating: 200, count: rows)
        return Data(bytes)
    }

    @Test func tiffAllocationLimitIsLiftedByUnlimited() throws {
        let tiff = Self.tiffWithManyStrips(rows: 200_000)
        let options = DecodingOptions(limits: DecodingLimits(maxTotalBytes: 1 << 20))
        #expect(throws: WebImageError.self) { try TIFFCoder().decode(tiff, options: options) }
        let image = try TIFFCoder(unlimited: true).decode(tiff, options: options)
        #expect(image.size == PixelSize(width: 1, height: 200_000) && image.pixels[0, 199_999].red == 200)
    }

    /// An SVG of 11 MiB (a long comment) is over the default 10 MiB and read with a larger limit.
    @Test func svgSizeLimitIsTheCodersMaxBytes() throws {
        let comment = "<!--" + String(repeating: "x", count: 11 << 20) + "-->"
        let svg = Data((#"<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4">"# + comment + "</svg>").utf8)
        #expect(throws: WebImageError.self) { try SVGCoder().decode(svg, options: .default) }
        #expect(try SVGCoder(maxBytes: 12 << 20).decode(svg, options: .default).size == PixelSize(width: 4, height: 4))
    }
}
