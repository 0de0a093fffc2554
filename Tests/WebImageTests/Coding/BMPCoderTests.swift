import Foundation
import Testing

@testable import WebImage

/// BMP, ICO and CUR in Swift: the fixtures against Pillow's decodes, header information, colour profiles, and
/// encoding round trips.
@Suite struct BMPCoderTests {
    /// The BMP, ICO and CUR entries of the formats manifest.
    static let fixtures = FormatsFixture.all.filter { ["bmp", "ico"].contains($0.format) }

    /// Fixtures whose pixels may carry transparency, as their headers say.
    private static let withAlpha: Set<String> = [
        "bmp_rle4.bmp", "bmp_rle8.bmp", "bmp_v5_alpha.bmp", "bmp_rgb32_zero_alpha.bmp",
    ]

    @Test func everyVariantHasAFixture() {
        #expect(Self.fixtures.count == 18)
    }

    /// Lossless files decode to Pillow's pixels exactly (compared premultiplied: the colour of a transparent pixel
    /// does not count), but for 16-bit channels: Pillow floors the scaling to 8 bits, Chromium and this coder round.
    @Test(arguments: fixtures.filter { $0.tolerance == "lossless" })
    func fixtureDecodesToItsReference(_ fixture: FormatsFixture) throws {
        let image = try ImageCoders.default.decode(try fixture.data(), options: .default)
        let expected = try ReferenceImage.load(FormatsFixture.directory.appendingPathComponent(fixture.reference!))
        try #require(image.size == expected.size)
        let sixteenBits = fixture.file.hasSuffix("_565.bmp") || fixture.file.hasSuffix("_555.bmp")
        #expect(ReferenceImage.difference(image.pixels, expected).max <= (sixteenBits ? 1 : 0))
        #expect(image.format.name == fixture.format)
        #expect(image.isOpaque == (expected.isOpaque))
    }

    @Test(arguments: fixtures)
    func infoMatchesTheDecode(_ fixture: FormatsFixture) throws {
        let data = try fixture.data()
        let info = try ImageCoders.default.info(of: data)
        #expect(info.format.name == fixture.format)
        #expect(info.width == fixture.width && info.height == fixture.height)
        #expect(info.frameCount == 1 && info.orientation == .up)
        let name = URL(fileURLWithPath: fixture.file).lastPathComponent
        #expect(info.hasAlpha == (fixture.format == "ico" || Self.withAlpha.contains(name)))
    }

    @Test func infoReadsOnlyTheHeader() throws {
        let data = try FormatsFixture.image("bmp_rgb24.bmp")
        let info = try BMPCoder().info(of: data.prefix(54))
        #expect(info.width == 37 && info.height == 23 && !info.hasAlpha)
        #expect(throws: WebImageError.self) { try BMPCoder().decode(data.prefix(54), options: .default) }
    }

    @Test func twoBitPalettesAndShortOS2Headers() throws {
        let twoBits = BMPBytes.file(
            header: BMPBytes.infoHeader(width: 5, height: 1, bits: 2, colors: 4), table: BMPBytes.greys(4),
            pixels: [0x1B, 0x80, 0, 0])
        let pixels = try BMPCoder().decode(twoBits, options: .default).pixels
        #expect((0..<5).map { pixels[$0, 0].red } == [0, 85, 170, 255, 170])
        // An OS/2 2.x header may stop after any field: here after the bit count (16 bytes); the rest reads as zero.
        let short =
            BMPBytes.little(16) + BMPBytes.little(1) + BMPBytes.little(1) + BMPBytes.little(1, 2)
            + BMPBytes.little(24, 2)
        let os2 = try BMPCoder().decode(BMPBytes.file(header: short, pixels: [10, 20, 30, 0]), options: .default)
        #expect(os2.pixels[0, 0] == RGBA(red: 30, green: 20, blue: 10))
    }

    @Test func alphaBytesThatAreAllZeroMeanOpaque() throws {
        let image = try BMPCoder().decode(try FormatsFixture.image("bmp_rgb32_zero_alpha.bmp"), options: .default)
        #expect(image.isOpaque)
        let reference = try BMPCoder().decode(try FormatsFixture.image("bmp_rgb24.bmp"), options: .default)
        #expect(image.pixels == reference.pixels)
    }

    @Test func topDownRowsMatchBottomUpOnes() throws {
        let topDown = try BMPCoder().decode(try FormatsFixture.image("bmp_topdown.bmp"), options: .default)
        let bottomUp = try BMPCoder().decode(try FormatsFixture.image("bmp_rgb24.bmp"), options: .default)
        #expect(topDown.pixels == bottomUp.pixels)
    }

    @Test func embeddedProfileIsConvertedOrKept() throws {
        let data = try FormatsFixture.image("bmp_v5_p3.bmp")
        let profile = try Data(contentsOf: FormatsFixture.directory.appendingPathComponent("DisplayP3.icc"))
        let kept = try BMPCoder().decode(data, options: DecodingOptions(keepsColorProfile: true))
        #expect(kept.colorProfile == profile)
        let converted = try BMPCoder().decode(data, options: .default)
        #expect(converted.colorProfile == nil)
        #expect(converted.pixels == kept.convertedToSRGB().pixels)
        #expect(converted.pixels != kept.pixels)
    }

    @Test func limitsAreCheckedFromTheHeader() throws {
        let small = DecodingOptions(limits: DecodingLimits(maxPixelsPerFrame: 37 * 23 - 1))
        for name in ["bmp_rgb24.bmp", "bmp_rle8.bmp", "ico_bmp_mask.ico", "ico_png.ico"] {
            let error = #expect(throws: WebImageError.self) {
                try ImageCoders.default.decode(FormatsFixture.image(name), options: small)
            }
            #expect(error?.code == .tooLarge, "\(name)")
        }
    }

    @Test func icoPicksTheLargestEntryAndAppliesItsMask() throws {
        let image = try ICOCoder().decode(try FormatsFixture.image("ico_bmp_mask.ico"), options: .default)
        #expect(image.size == PixelSize(width: 37, height: 23))
        #expect(image.pixels[0, 0].alpha == 0 && image.pixels[18, 11].alpha == 255)
        let cursor = try ImageCoders.default.decode(try FormatsFixture.image("cur_bmp.cur"), options: .default)
        #expect(cursor.format == .ico && cursor.pixels[0, 0].alpha == 255 && cursor.pixels[31, 31].alpha == 0)
    }

    // MARK: - Encoding

    @Test(arguments: [false, true])
    func bmpRoundTripIsExact(alpha: Bool) throws {
        let image = Image.gradient(width: 37, height: 23, alpha: alpha)
        let data = try ImageCoders.default.encode(image, as: .bmp, options: .default)
        #expect(ImageFormat.sniff(data) == .bmp)
        // 24-bit under a 40-byte header when opaque; 32-bit BI_BITFIELDS under a V5 header with alpha.
        #expect(data[14] == (alpha ? 124 : 40) && data[28] == (alpha ? 32 : 24) && data[30] == (alpha ? 3 : 0))
        let stride = (37 * (alpha ? 4 : 3) + 3) & ~3
        #expect(data.count == 14 + (alpha ? 124 : 40) + stride * 23)
        let decoded = try ImageCoders.default.decode(data, options: .default)
        #expect(decoded.pixels == image.pixels)
        #expect(decoded.format == .bmp)
    }

    @Test func bmpEmbedsTheProfileWhenAsked() throws {
        let profile = try Data(contentsOf: FormatsFixture.directory.appendingPathComponent("DisplayP3.icc"))
        let source = Image.gradient(width: 9, height: 5, alpha: false)
        let image = Image(frames: source.frames, colorProfile: profile)
        let data = try BMPCoder().encode(image, as: .bmp, options: EncodingOptions(embedsColorProfile: true))
        let decoded = try BMPCoder().decode(data, options: DecodingOptions(keepsColorProfile: true))
        #expect(decoded.colorProfile == profile && decoded.pixels == source.pixels)
        let converted = try BMPCoder().decode(
            try BMPCoder().encode(image, as: .bmp, options: .default), options: .default)
        #expect(converted.colorProfile == nil && converted.pixels == image.convertedToSRGB().pixels)
    }

    @Test(arguments: [(37, 23), (300, 20)])
    func icoRoundTripIsExact(width: Int, height: Int) throws {
        let image = Image.gradient(width: width, height: height, alpha: true)
        let data = try ImageCoders.default.encode(image, as: .ico, options: .default)
        #expect(ImageFormat.sniff(data) == .ico)
        #expect(data[6] == (width >= 256 ? 0 : UInt8(width)) && data[7] == UInt8(height))
        #expect(data[22..<30].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        let info = try ImageCoders.default.info(of: data)
        #expect(info.width == width && info.height == height && info.format == .ico)
        let decoded = try ImageCoders.default.decode(data, options: .default)
        #expect(decoded.pixels == image.pixels && decoded.format == .ico)
    }

    @Test func animationsEncodeTheirFirstFrame() throws {
        let first = Image.gradient(width: 8, height: 6, alpha: false)
        let second = Image.gradient(width: 8, height: 6, alpha: true)
        let animation = Image(frames: [first.frames[0], second.frames[0]])
        for format in [ImageFormat.bmp, .ico] {
            let data = try ImageCoders.default.encode(animation, as: format, options: .default)
            #expect(try ImageCoders.default.decode(data, options: .default).pixels == first.pixels)
        }
    }

    @Test func extensionsAndMIMETypes() {
        #expect(ImageFormat(fileExtension: "BMP") == .bmp && ImageFormat(fileExtension: "cur") == .ico)
        #expect(ImageFormat.bmp.mimeType == "image/bmp" && ImageFormat.ico.mimeType == "image/x-icon")
        #expect(ImageFormat.bmp.fileExtension == "bmp" && ImageFormat.ico.fileExtension == "ico")
        #expect(ImageCoders.default.canEncode(.bmp) && ImageCoders.default.canEncode(.ico))
    }
}
