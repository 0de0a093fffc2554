import Foundation
import Testing

@testable import WebImage

/// HEIC with libheif: header information, alpha, thumbnails, limits, and encoding through its x265 plugin.
@Suite struct HEICCoderTests {
    private let coder = HEICCoder()

    @Test func infoReadsTheContainer() throws {
        let info = try ImageCoders.default.info(of: FormatsFixture.image("heic_rgb.heic"))
        #expect(info.format == .heic && info.width == 128 && info.height == 96)
        #expect(info.frameCount == 1 && info.orientation == .up && !info.hasAlpha)
        #expect(try coder.info(of: FormatsFixture.image("heic_alpha.heic")).hasAlpha)
    }

    /// libheif applies `irot`/`imir` itself (checked on AVIF files, which libheif also reads, since heif-enc cannot
    /// write those properties): the size comes out turned and the pixels match libavif's decode, oriented.
    @Test func libheifAppliesContainerTransformations() throws {
        let data = try FormatsFixture.image("avif_irot3_imir0.avif")
        let size = try data.withUnsafeBytes { bytes in try HEIFFile(bytes).primaryImage().size }
        #expect(size == PixelSize(width: 96, height: 128))
        let pixels = try data.withUnsafeBytes { bytes in
            try HEIFFile(bytes).primaryImage().decodeRGBA(
                color: ColorHandling(profile: nil, options: .default))
        }
        let avif = try AVIFCoder().decode(data, options: .default)
        #expect(ReferenceImage.difference(pixels, avif.pixels).mean < 1.5)
    }

    @Test func alphaComesThrough() throws {
        let opaque = try coder.decode(FormatsFixture.image("heic_rgb.heic"), options: .default)
        #expect(opaque.isOpaque && opaque.format == .heic)
        let alpha = try coder.decode(FormatsFixture.image("heic_alpha.heic"), options: .default)
        #expect(!alpha.isOpaque)
        #expect(alpha.pixels[0, 0].alpha == 255 && alpha.pixels[127, 95].alpha < 16)
    }

    @Test func thumbnailServesASmallTarget() throws {
        let data = try FormatsFixture.image("heic_thumb.heic")
        let small = try coder.decode(data, options: DecodingOptions(targetSize: PixelSize(width: 30, height: 20)))
        #expect(small.size == PixelSize(width: 32, height: 24))
        let large = try coder.decode(data, options: DecodingOptions(targetSize: PixelSize(width: 40, height: 20)))
        #expect(large.size == PixelSize(width: 128, height: 96))
        let full = try coder.decode(data, options: .default)
        #expect(full.size == PixelSize(width: 128, height: 96))
        #expect(
            try coder.decode(
                FormatsFixture.image("heic_rgb.heic"),
                options: DecodingOptions(
                    targetSize: PixelSize(width: 8, height: 8))
            ).size == PixelSize(width: 128, height: 96))
    }

    @Test func limitsAreCheckedBeforeDecoding() throws {
        let options = DecodingOptions(limits: DecodingLimits(maxPixelsPerFrame: 1000))
        #expect(
            performing: { try coder.decode(FormatsFixture.image("heic_rgb.heic"), options: options) },
            throws: {
                ($0 as? WebImageError)?.code == .tooLarge
            })
    }

    /// Encoding through libheif's x265 plugin: a round trip close to the source, alpha kept, quality ordering
    /// sizes, a profile embedded when asked. Skipped, saying why, where libheif has no HEVC encoder.
    @Test(.enabled(if: HEICEncoder.isAvailable, "libheif has no HEVC encoder (x265 plugin) here"))
    func encodingRoundTrips() throws {
        #expect(ImageCoders.default.canEncode(.heic))
        for alpha in [false, true] {
            let image = Image.gradient(width: 64, height: 48, alpha: alpha)
            let data = try ImageCoders.default.encode(image, as: .heic, options: EncodingOptions(quality: 90))
            #expect(ImageFormat.sniff(data) == .heic)
            let decoded = try ImageCoders.default.decode(data, options: .default)
            #expect(decoded.size == image.size)
            #expect(decoded.isOpaque == !alpha)
            let difference = ReferenceImage.difference(decoded.pixels, image.pixels)
            #expect(difference.mean < 3, "mean difference \(difference.mean)")
        }
        let image = Image.gradient(width: 64, height: 48, alpha: false)
        let low = try ImageCoders.default.encode(image, as: .heic, options: EncodingOptions(quality: 20))
        let high = try ImageCoders.default.encode(image, as: .heic, options: EncodingOptions(quality: 95))
        #expect(low.count < high.count)
        let p3 = try coder.decode(
            FormatsFixture.image("heic_p3.heic"), options: DecodingOptions(keepsColorProfile: true))
        let tagged = try coder.encode(p3, as: .heic, options: EncodingOptions(embedsColorProfile: true))
        #expect(try coder.decode(tagged, options: DecodingOptions(keepsColorProfile: true)).colorProfile != nil)
    }

    @Test func animationsEncodeTheirFirstFrame() throws {
        try #require(HEICEncoder.isAvailable, "libheif has no HEVC encoder (x265 plugin) here")
        let frames = [
            ImageFrame(pixels: PixelBuffer(width: 8, height: 8, filledWith: .white), duration: 0.1),
            ImageFrame(pixels: PixelBuffer(width: 8, height: 8, filledWith: .black), duration: 0.1),
        ]
        let data = try ImageCoders.default.encode(Image(frames: frames), as: .heic, options: .default)
        let decoded = try ImageCoders.default.decode(data, options: .default)
        #expect(decoded.frames.count == 1)
        #expect(decoded.pixels.bytes[0] > 200)
    }
}
