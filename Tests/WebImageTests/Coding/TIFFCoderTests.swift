import Foundation
import Testing

@testable import WebImage

/// TIFF through libtiff: the fixtures against Pillow's decodes, header information, orientation, colour profiles,
/// and encoding round trips.
@Suite struct TIFFCoderTests {
    /// The TIFF entries of the formats manifest.
    static let fixtures = FormatsFixture.all.filter { $0.format == "tiff" }

    /// Fixtures with an alpha channel.
    private static let withAlpha: Set<String> = [
        "tiff_rgba_unassociated.tif", "tiff_rgba_associated.tif", "tiff_gray_alpha.tif", "tiff_rgba_be.tif",
        "tiff_tiled.tif",
    ]

    private static func name(_ fixture: FormatsFixture) -> String {
        URL(fileURLWithPath: fixture.file).lastPathComponent
    }

    @Test func everyVariantHasAFixture() {
        #expect(Self.fixtures.count == 20)
    }

    /// Lossless files decode to Pillow's pixels exactly (compared premultiplied), but for one step where 16-bit
    /// samples are scaled to 8 bits (Pillow keeps the high byte of RGB, the script rounds grey, libtiff has its own
    /// table) and where the two convert CMYK or divide associated alpha.
    @Test(arguments: fixtures.filter { $0.tolerance == "lossless" })
    func fixtureDecodesToItsReference(_ fixture: FormatsFixture) throws {
        let image = try ImageCoders.default.decode(try fixture.data(), options: .default)
        let expected = try ReferenceImage.load(FormatsFixture.directory.appendingPathComponent(fixture.reference!))
        try #require(image.size == expected.size)
        let rounded: Set<String> = [
            "tiff_rgb16_be.tif", "tiff_gray16.tif", "tiff_cmyk.tif", "tiff_rgba_associated.tif",
        ]
        #expect(ReferenceImage.difference(image.pixels, expected).max <= (rounded.contains(Self.name(fixture)) ? 1 : 0))
        #expect(image.format == .tiff)
        #expect(image.isOpaque == !Self.withAlpha.contains(Self.name(fixture)))
    }

    @Test(arguments: fixtures)
    func infoMatchesTheDecode(_ fixture: FormatsFixture) throws {
        let info = try ImageCoders.default.info(of: try fixture.data())
        let name = Self.name(fixture)
        #expect(info.format == .tiff)
        #expect(info.uprightSize == PixelSize(width: fixture.width, height: fixture.height))
        #expect(info.frameCount == (name == "tiff_pages.tif" ? 2 : 1))
        #expect(info.orientation == (name == "tiff_orientation6.tif" ? .right : .up))
        #expect(info.hasAlpha == Self.withAlpha.contains(name))
    }

    /// The `Orientation` tag of the Orientation 6 fixture rewritten to each value: the pixels come out turned as
    /// the value says, or as stored when orientation is not applied.
    @Test(arguments: 1...8)
    func everyOrientationIsApplied(value: Int) throws {
        var data = try FormatsFixture.image("tiff_orientation6.tif")
        let field = try #require(Self.orientationField(in: data))
        data[field] = UInt8(value)
        let orientation = try #require(ImageOrientation(rawValue: value))
        let stored = try TIFFCoder().decode(data, options: DecodingOptions(appliesOrientation: false))
        #expect(stored.size == PixelSize(width: 37, height: 23) && stored.sourceOrientation == .up)
        let upright = try TIFFCoder().decode(data, options: .default)
        #expect(upright.pixels == stored.pixels.oriented(from: orientation))
        #expect(upright.sourceOrientation == orientation)
        #expect(try TIFFCoder().info(of: data).orientation == orientation)
    }

    /// Where the value of tag 274 of the first directory of a little-endian TIFF is.
    private static func orientationField(in data: Data) -> Int? {
        func little(_ at: Int, _ count: Int) -> Int {
            (0..<count).reduce(0) { $0 | Int(data[at + $1]) << (8 * $1) }
        }
        let directory = little(4, 4)
        for entry in 0..<little(directory, 2) where little(directory + 2 + entry * 12, 2) == 274 {
            return directory + 2 + entry * 12 + 8
        }
        return nil
    }

    @Test func cmykProfileIsAlwaysApplied() throws {
        let data = try FormatsFixture.image("tiff_cmyk_profile.tif")
        let kept = try TIFFCoder().decode(data, options: DecodingOptions(keepsColorProfile: true))
        let converted = try TIFFCoder().decode(data, options: .default)
        #expect(kept.colorProfile == nil && kept.pixels == converted.pixels)
        let naive = try TIFFCoder().decode(try FormatsFixture.image("tiff_cmyk.tif"), options: .default)
        #expect(ReferenceImage.difference(converted.pixels, naive.pixels).max > 24)
    }

    @Test func limitsAreCheckedFromTheHeader() throws {
        let small = DecodingOptions(limits: DecodingLimits(maxPixelsPerFrame: 37 * 23 - 1))
        for fixture in Self.fixtures {
            let error = #expect(throws: WebImageError.self) {
                try ImageCoders.default.decode(fixture.data(), options: small)
            }
            #expect(error?.code == .tooLarge, "\(fixture.file)")
        }
    }

    // MARK: - Encoding

    @Test(arguments: [false, true])
    func roundTripIsExact(alpha: Bool) throws {
        let image = Image.gradient(width: 37, height: 23, alpha: alpha)
        let data = try ImageCoders.default.encode(image, as: .tiff, options: .default)
        #expect(ImageFormat.sniff(data) == .tiff)
        #expect(data.count < 37 * 23 * (alpha ? 4 : 3))
        let info = try ImageCoders.default.info(of: data)
        #expect(info.width == 37 && info.height == 23 && info.hasAlpha == alpha && info.frameCount == 1)
        let decoded = try ImageCoders.default.decode(data, options: .default)
        #expect(decoded.pixels == image.pixels && decoded.format == .tiff && decoded.isOpaque == !alpha)
    }

    @Test func largerImagesSpanSeveralStrips() throws {
        let image = Image.gradient(width: 300, height: 200, alpha: true)
        let data = try TIFFCoder().encode(image, as: .tiff, options: .default)
        #expect(try TIFFCoder().decode(data, options: .default).pixels == image.pixels)
    }

    @Test func profileIsEmbeddedWhenAsked() throws {
        let profile = try Data(contentsOf: FormatsFixture.directory.appendingPathComponent("DisplayP3.icc"))
        let source = Image.gradient(width: 9, height: 5, alpha: true)
        let image = Image(frames: source.frames, colorProfile: profile)
        let data = try TIFFCoder().encode(image, as: .tiff, options: EncodingOptions(embedsColorProfile: true))
        let kept = try TIFFCoder().decode(data, options: DecodingOptions(keepsColorProfile: true))
        #expect(kept.colorProfile == profile && kept.pixels == source.pixels)
        let converted = try TIFFCoder().decode(data, options: .default)
        #expect(converted.colorProfile == nil && converted.pixels == kept.convertedToSRGB().pixels)
        let plain = try TIFFCoder().decode(
            try TIFFCoder().encode(image, as: .tiff, options: .default), options: .default)
        #expect(plain.colorProfile == nil && plain.pixels == image.convertedToSRGB().pixels)
    }

    @Test func sniffingAndNames() {
        for magic: [UInt8] in [
            [0x49, 0x49, 0x2A, 0], [0x4D, 0x4D, 0, 0x2A], [0x49, 0x49, 0x2B, 0], [0x4D, 0x4D, 0, 0x2B],
        ] {
            #expect(ImageFormat.sniff(Data(magic + [0, 0, 0, 8])) == .tiff)
        }
        #expect(ImageFormat(fileExtension: "TIF") == .tiff && ImageFormat.tiff.mimeType == "image/tiff")
        #expect(ImageCoders.default.canEncode(.tiff) && ImageCoders.default.canDecode(.tiff))
    }
}
