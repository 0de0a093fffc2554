import Foundation
import Testing

@testable import WebImage

/// Hostile BMP, ICO and CUR bytes are a typed error, never a trap: every truncation of every fixture, and hand-made
/// headers with impossible sizes, offsets, masks, palette indices and runs.
@Suite struct BMPDamageTests {
    private func error(_ data: Data, coder: any ImageCoding = ImageCoders.default) -> WebImageError? {
        do {
            _ = try coder.decode(data, options: .default)
            return nil
        } catch {
            return error
        }
    }

    /// Cut at every length, a fixture is a typed error, and its header reads or fails without a crash.
    @Test(arguments: BMPCoderTests.fixtures)
    func everyTruncationIsATypedError(_ fixture: FormatsFixture) throws {
        let data = try fixture.data()
        for length in 0..<data.count {
            let cut = data.prefix(length)
            #expect(error(cut) != nil, "cut at \(length)")
            _ = try? ImageCoders.default.info(of: cut)
        }
    }

    private let gray8 = BMPBytes.infoHeader(width: 4, height: 2, bits: 8, colors: 4)

    @Test func paletteIndexPastThePaletteIsCorrupt() {
        let data = BMPBytes.file(header: gray8, table: BMPBytes.greys(4), pixels: [0, 1, 2, 3, 0, 1, 9, 3])
        #expect(error(data)?.code == .corruptData)
        let fine = BMPBytes.file(header: gray8, table: BMPBytes.greys(4), pixels: [0, 1, 2, 3, 0, 1, 2, 3])
        #expect(error(fine) == nil)
    }

    private func rle8(_ runs: [UInt8], width: Int = 4, height: Int = 2) -> Data {
        let header = BMPBytes.infoHeader(width: width, height: height, bits: 8, compression: 1, colors: 4)
        return BMPBytes.file(header: header, table: BMPBytes.greys(4), pixels: runs)
    }

    @Test func runLengthRunsStayInsideTheImage() {
        #expect(error(rle8([4, 1, 0, 0, 4, 2, 0, 1])) == nil)
        #expect(error(rle8([5, 1, 0, 1]))?.code == .corruptData, "a run past its row")
        #expect(error(rle8([0, 5, 1, 1, 1, 1, 1, 0, 0, 1]))?.code == .corruptData, "a literal run past its row")
        #expect(error(rle8([0, 2, 5, 0, 0, 1]))?.code == .corruptData, "a delta past the row")
        #expect(error(rle8([0, 2, 0, 3, 0, 1]))?.code == .corruptData, "a delta past the image")
        #expect(error(rle8([4, 7, 0, 1]))?.code == .corruptData, "an index past the palette")
        #expect(error(rle8([4, 1, 0, 0, 4]))?.code == .truncatedData, "a run cut in half")
        #expect(error(rle8([0, 4, 1, 1]))?.code == .truncatedData, "a literal run cut short")
        #expect(error(rle8([4, 1, 0, 0]))?.code == .truncatedData, "no end of bitmap before the last row")
    }

    /// ImageMagick encodes each padded row (here 3 pixels wide, 4 with its padding): a run into the padding is
    /// dropped there, as Firefox and Pillow drop it; one past the padding is still corrupt.
    @Test func runLengthRunsMayCoverTheRowsPadding() throws {
        let image = try BMPCoder().decode(rle8([4, 1, 0, 0, 0, 4, 2, 2, 2, 2, 0, 1], width: 3), options: .default)
        #expect(image.size == PixelSize(width: 3, height: 2))
        #expect((0..<3).allSatisfy { image.pixels[$0, 1] == RGBA(red: 85, green: 85, blue: 85) })
        #expect((0..<3).allSatisfy { image.pixels[$0, 0] == RGBA(red: 170, green: 170, blue: 170) })
        #expect(error(rle8([5, 1, 0, 1], width: 3))?.code == .corruptData, "a run past the padding")
        #expect(error(rle8([4, 1, 1, 1, 0, 1], width: 3))?.code == .corruptData, "a second run past the padding")
    }

    @Test func runLengthSkipsLeaveTransparentPixels() throws {
        // Row 0 (the bottom): one pixel, a delta of 2, one pixel; then end of bitmap, leaving the top row.
        let image = try BMPCoder().decode(rle8([1, 3, 0, 2, 2, 0, 1, 3, 0, 1]), options: .default)
        let bottom = (0..<4).map { image.pixels[$0, 1].alpha }
        #expect(bottom == [255, 0, 0, 255])
        #expect((0..<4).allSatisfy { image.pixels[$0, 0] == .clear })
        // RLE4: a run of alternating indices 1 and 2, and a literal run of three nibbles.
        let header = BMPBytes.infoHeader(width: 4, height: 2, bits: 4, compression: 2, colors: 4)
        let rle4 = BMPBytes.file(
            header: header, table: BMPBytes.greys(4), pixels: [4, 0x12, 0, 0, 0, 3, 0x31, 0x20, 0, 1])
        let pixels = try BMPCoder().decode(rle4, options: .default).pixels
        #expect((0..<4).map { pixels[$0, 1].red } == [85, 170, 85, 170])
        #expect((0..<4).map { pixels[$0, 0].red } == [255, 85, 170, 0])
        #expect(pixels[3, 0].alpha == 0)
    }

    @Test func impossibleSizesAreRefused() {
        func code(width: Int, height: Int, bits: Int = 24, compression: Int = 0) -> WebImageError.Code? {
            let header = BMPBytes.infoHeader(width: width, height: height, bits: bits, compression: compression)
            return error(BMPBytes.file(header: header, pixels: [UInt8](repeating: 0, count: 64)))?.code
        }
        #expect(code(width: 0, height: 4) == .corruptData)
        #expect(code(width: 4, height: 0) == .corruptData)
        #expect(code(width: -4, height: 4) == .corruptData)
        #expect(code(width: 100_000, height: 100_000) == .tooLarge)
        #expect(code(width: 0x7FFF_FFFF, height: -0x8000_0000, bits: 32) == .tooLarge)
        #expect(code(width: 64, height: 64) == .truncatedData)
        #expect(code(width: 4, height: -4, bits: 8, compression: 1) == .corruptData, "top-down runs")
        #expect(code(width: 4, height: 4, bits: 24, compression: 1) == .corruptData, "RLE8 of 24-bit pixels")
        #expect(code(width: 4, height: 4, bits: 7) == .corruptData)
        #expect(code(width: 4, height: 4, bits: 0, compression: 4) == .unsupportedFormat, "embedded JPEG")
        #expect(code(width: 4, height: 4, bits: 0, compression: 5) == .unsupportedFormat, "embedded PNG")
        #expect(code(width: 4, height: 4, compression: 9) == .corruptData)
    }

    @Test func headersAndOffsetsMustFit() {
        let pixels = [UInt8](repeating: 0, count: 16 * 2)
        let header = BMPBytes.infoHeader(width: 4, height: 2, bits: 32)
        #expect(error(BMPBytes.file(header: header, pixels: pixels)) == nil)
        #expect(error(BMPBytes.file(header: header, pixels: pixels, offset: 30))?.code == .corruptData)
        #expect(error(BMPBytes.file(header: header, pixels: pixels, offset: 1 << 31))?.code == .truncatedData)
        for size in [0, 11, 13, 65, 100, 200, -1] {
            var huge = BMPBytes.file(header: header, pixels: pixels)
            huge.replaceSubrange(14..<18, with: BMPBytes.little(size))
            #expect(error(huge, coder: BMPCoder())?.code == .corruptData, "a \(size)-byte header")
        }
        var profile = BMPBytes.infoHeader(width: 4, height: 2, bits: 32, size: 124)
        profile.replaceSubrange(56..<60, with: BMPBytes.little(0x4D42_4544))
        profile.replaceSubrange(112..<120, with: BMPBytes.little(200) + BMPBytes.little(1000))
        #expect(error(BMPBytes.file(header: profile, pixels: pixels))?.code == .truncatedData)
    }

    private func bitfields(_ masks: [Int], bits: Int = 16, compression: Int = 3) -> Data {
        let header = BMPBytes.infoHeader(width: 2, height: 1, bits: bits, compression: compression)
        let pixel = bits == 16 ? [0x1F, 0xF8] as [UInt8] : [0x00, 0x00, 0xFF, 0x80]
        return BMPBytes.file(header: header, table: masks.flatMap { BMPBytes.little($0) }, pixels: pixel + pixel)
    }

    @Test func bitFieldMasksAreChecked() throws {
        #expect(error(bitfields([0xF800, 0x07E0, 0x001F])) == nil)
        #expect(error(bitfields([0, 0x07E0, 0x001F]))?.code == .corruptData, "an empty mask")
        #expect(error(bitfields([0xF800, 0x0FE0, 0x001F]))?.code == .corruptData, "overlapping masks")
        #expect(error(bitfields([0xF801, 0x07E0, 0x001E]))?.code == .corruptData, "a mask with a gap")
        #expect(error(bitfields([0x1F800, 0x07E0, 0x001F]))?.code == .corruptData, "a mask past 16 bits")
        #expect(error(bitfields([0xF800, 0x07E0, 0x001F], bits: 24))?.code == .corruptData)
        // BI_ALPHABITFIELDS: four masks after a 40-byte header.
        let alpha = try BMPCoder().decode(
            bitfields([0xFF_0000, 0xFF00, 0xFF, 0xFF00_0000], bits: 32, compression: 6), options: .default)
        #expect(alpha.pixels[0, 0] == RGBA(red: 255, green: 0, blue: 0, alpha: 128))
    }

    @Test func iconEntriesMustBeInTheFile() throws {
        let png = try ImageCoders.default.encode(
            Image(pixels: PixelBuffer(width: 2, height: 2, filledWith: .white)), as: .png, options: .default)
        #expect(error(BMPBytes.icon(Array(png))) == nil)
        #expect(error(BMPBytes.icon(Array(png), size: png.count + 1))?.code == .truncatedData, "an entry past the end")
        #expect(error(BMPBytes.icon(Array(png), offset: 1 << 31))?.code == .truncatedData, "an offset past the end")
        #expect(error(BMPBytes.icon(Array(png), offset: 10))?.code == .corruptData, "an entry inside the directory")
        var empty = BMPBytes.icon(Array(png))
        empty[4] = 0
        #expect(error(empty, coder: ICOCoder())?.code == .corruptData, "no entries")
        var kind = BMPBytes.icon(Array(png))
        kind[2] = 3
        #expect(error(kind, coder: ICOCoder())?.code == .corruptData, "neither icon nor cursor")
    }

    @Test func iconBitmapsNeedTheirMask() {
        // A 2x2 8-bit bitmap (height doubled), palette, 2 rows of 4 bytes, then the AND mask: 2 rows of 4 bytes.
        let bitmap =
            BMPBytes.infoHeader(width: 2, height: 4, bits: 8, colors: 2) + BMPBytes.greys(2) + [1, 1, 0, 0]
            + [1, 0, 0, 0]
        let mask: [UInt8] = [0x80, 0, 0, 0, 0x40, 0, 0, 0]
        #expect(error(BMPBytes.icon(bitmap + mask)) == nil)
        #expect(error(BMPBytes.icon(bitmap + mask.prefix(4)))?.code == .truncatedData)
        let rle = BMPBytes.infoHeader(width: 2, height: 4, bits: 8, compression: 1, colors: 2) + BMPBytes.greys(2)
        #expect(error(BMPBytes.icon(rle + [2, 1, 0, 1]))?.code == .unsupportedFormat)
    }
}
