import Foundation
import Testing

@testable import WebImage

/// ICC profiles: converted to sRGB by default, kept on request, embedded by encoders only when asked.
@Suite struct ColorManagementTests {
    private let coders = ImageCoders.default
    private let keep = DecodingOptions(keepsColorProfile: true)

    private func profile(_ name: String) throws -> Data {
        try Data(contentsOf: FormatsFixture.directory.appendingPathComponent(name))
    }

    @Test func srgbProfilesNeedNoTransform() throws {
        // The profile ImageMagick embedded from colord's sRGB.icc.
        let jpeg = try FormatsFixture.image("jpeg_srgb_profile.jpg")
        let srgb = try #require(jpeg.withUnsafeBytes { ICCProfileReader.jpeg($0) })
        #expect(srgb.count > 1000)
        #expect(ColorTransforms.transform(for: srgb, source: .rgba) == nil)
        #expect(ColorTransforms.transform(for: try profile("DisplayP3.icc"), source: .rgba) != nil)
    }

    @Test func largeProfilesSpanSeveralJPEGSegments() throws {
        let white = Image(pixels: PixelBuffer(width: 8, height: 8, filledWith: .white))
        let jpeg = try coders.encode(white, as: .jpeg, options: .default)
        let profile = Data((0..<150_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let tagged = try ICCProfileWriter.jpeg(jpeg, profile: profile)
        #expect(tagged.withUnsafeBytes { ICCProfileReader.jpeg($0) } == profile)
        // The bytes are no ICC profile, so they are ignored and the image still decodes.
        let decoded = try coders.decode(tagged, options: .default)
        #expect(decoded.size == PixelSize(width: 8, height: 8) && decoded.pixels[4, 4].red > 250)
        // A missing part makes the whole profile unusable, as libjpeg-turbo decides.
        var broken = tagged
        let second = try #require(broken.range(of: Data("ICC_PROFILE\0\u{2}".utf8)))
        broken[second.upperBound - 1] = 1
        #expect(broken.withUnsafeBytes { ICCProfileReader.jpeg($0) } == nil)
    }

    @Test func unusableProfilesAreIgnored() throws {
        #expect(ColorTransforms.transform(for: Data("not a profile".utf8), source: .rgba) == nil)
        // An RGB profile cannot describe CMYK pixels.
        #expect(ColorTransforms.transform(for: try profile("DisplayP3.icc"), source: .cmyk) == nil)
        var damaged = try profile("DisplayP3.icc")
        damaged.replaceSubrange(100..<200, with: [UInt8](repeating: 0xFF, count: 100))
        _ = ColorTransforms.transform(for: damaged, source: .rgba)
    }

    @Test(arguments: ["jpeg_p3.jpg", "png_p3.png", "webp_p3.webp", "avif_p3.avif", "heic_p3.heic"])
    func keptProfileTravelsWithTheImage(name: String) throws {
        let data = try FormatsFixture.image(name)
        let converted = try coders.decode(data, options: .default)
        let kept = try coders.decode(data, options: keep)
        #expect(kept.colorProfile == (try profile("DisplayP3.icc")))
        #expect(converted.colorProfile == nil)
        // P3 values of saturated red are less saturated than the same colour in sRGB.
        #expect(ReferenceImage.difference(kept.pixels, converted.pixels).max > 10)
    }

    @Test func keptImagesConvertLater() throws {
        let data = try FormatsFixture.image("png_adobergb_alpha.png")
        let converted = try coders.decode(data, options: .default)
        let kept = try coders.decode(data, options: keep)
        let later = kept.convertedToSRGB()
        #expect(later.colorProfile == nil && later.pixels == converted.pixels && !later.isOpaque)
        #expect(converted.convertedToSRGB() === converted)
    }

    @Test func wideGamutRedBecomesSRGBRed() throws {
        let image = try coders.decode(FormatsFixture.image("jpeg_p3.jpg"), options: .default)
        let red = image.pixels[32, 20]
        #expect(red.red > 200 && red.green < 60 && red.blue < 60)
    }

    @Test func cmykWithAProfileConvertsThroughIt() throws {
        let data = try FormatsFixture.image("jpeg_cmyk_profile.jpg")
        let image = try coders.decode(data, options: keep)
        #expect(image.colorProfile == nil)
        let reference = try FormatsFixture.reference("jpeg_cmyk_profile.jpg")
        #expect(ReferenceImage.difference(image.pixels, reference).mean < 1)
    }

    @Test(arguments: [ImageFormat.avif, .png, .jpeg, .webp])
    func encodersWriteSRGBUnlessAskedToEmbed(format: ImageFormat) throws {
        let kept = try coders.decode(FormatsFixture.image("png_p3.png"), options: keep)
        let reference = try FormatsFixture.reference("png_p3.png")
        let quality = EncodingOptions(quality: 95, lossless: true)
        let plain = try coders.encode(kept, as: format, options: quality)
        let plainDecoded = try coders.decode(plain, options: keep)
        #expect(plainDecoded.colorProfile == nil)
        #expect(ReferenceImage.difference(plainDecoded.pixels, reference).mean < 2.5)
        var embedding = quality
        embedding.embedsColorProfile = true
        let embedded = try coders.decode(try coders.encode(kept, as: format, options: embedding), options: keep)
        #expect(embedded.colorProfile == (try profile("DisplayP3.icc")))
        #expect(plain.count < (try coders.encode(kept, as: format, options: embedding)).count)
    }
}
