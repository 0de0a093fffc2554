import Foundation
import Testing
import WebImage

/// Animation, orientation, shrink-on-load, partial data and header reads.
@Suite struct DecodingFeatureTests {
    private let coders = ImageCoders.default

    @Test func gifAnimationHasFramesDurationsAndLoopCount() throws {
        let image = try coders.decode(try corpusImage("gen_anim.gif"), options: .default)
        #expect(image.frames.count == 8)
        #expect(image.loopCount == 0)
        #expect(image.frames.allSatisfy { (0.04...0.11).contains($0.duration) })
        #expect(Set(image.frames.map(\.duration)).count > 1)
    }

    @Test(arguments: [("gen_anim.gif", 8), ("gen_anim.png", 5), ("gen_anim.webp", 5)])
    func animationsDecodeEveryFrameOrOnlyTheFirst(name: String, frames: Int) throws {
        let data = try corpusImage(name)
        let all = try coders.decode(data, options: .default)
        #expect(all.frames.count == frames)
        #expect(all.isAnimated)
        #expect(all.frames.contains { $0.pixels != all.frames[0].pixels })
        let first = try coders.decode(data, options: DecodingOptions(firstFrameOnly: true))
        #expect(first.frames.count == 1)
        #expect(first.pixels == all.pixels)
    }

    @Test func apngFramesHaveDurations() throws {
        let image = try coders.decode(try corpusImage("gen_anim.png"), options: .default)
        #expect(image.frames.allSatisfy { $0.duration > 0 })
    }

    @Test(arguments: 1...8)
    func exifOrientationIsApplied(orientation: Int) throws {
        let data = try corpusImage("exif_Landscape_\(orientation).jpg")
        let image = try coders.decode(data, options: .default)
        #expect(image.size == PixelSize(width: 600, height: 450))
        #expect(image.sourceOrientation.rawValue == orientation)
        let info = try coders.info(of: data)
        #expect(info.orientation.rawValue == orientation)
        #expect(info.uprightSize == PixelSize(width: 600, height: 450))
        let stored = try coders.decode(data, options: DecodingOptions(appliesOrientation: false))
        #expect(stored.size == PixelSize(width: info.width, height: info.height))
    }

    @Test func orientationMapsPixelsAsExifDefines() {
        // A 3x2 image whose pixels are numbered 0...5 in their red channel.
        let source = PixelBuffer(width: 3, height: 2, bytes: (0..<6).flatMap { [UInt8($0), 0, 0, 255] })
        func reds(_ buffer: PixelBuffer) -> [UInt8] {
            stride(from: 0, to: buffer.bytes.count, by: 4).map { buffer.bytes[$0] }
        }
        let expected: [Int: (Int, Int, [UInt8])] = [
            1: (3, 2, [0, 1, 2, 3, 4, 5]), 2: (3, 2, [2, 1, 0, 5, 4, 3]), 3: (3, 2, [5, 4, 3, 2, 1, 0]),
            4: (3, 2, [3, 4, 5, 0, 1, 2]), 5: (2, 3, [0, 3, 1, 4, 2, 5]), 6: (2, 3, [3, 0, 4, 1, 5, 2]),
            7: (2, 3, [5, 2, 4, 1, 3, 0]), 8: (2, 3, [2, 5, 1, 4, 0, 3]),
        ]
        for (value, (width, height, order)) in expected {
            let turned = source.oriented(from: ImageOrientation(rawValue: value)!)
            #expect(turned.size == PixelSize(width: width, height: height), "orientation \(value)")
            #expect(reds(turned) == order, "orientation \(value)")
        }
    }

    @Test func jpegShrinksOnLoadToTheSmallestScaleCoveringTheTarget() throws {
        let data = try corpusImage("gen_12mp.jpg")
        let image = try coders.decode(data, options: DecodingOptions(targetSize: PixelSize(width: 256, height: 192)))
        #expect(image.size == PixelSize(width: 500, height: 375))
        let half = try coders.decode(data, options: DecodingOptions(targetSize: PixelSize(width: 1900, height: 1400)))
        #expect(half.size == PixelSize(width: 2000, height: 1500))
        let none = try coders.decode(data, options: DecodingOptions(targetSize: PixelSize(width: 3999, height: 2999)))
        #expect(none.size == PixelSize(width: 4000, height: 3000))
    }

    @Test func shrinkOnLoadTargetIsUpright() throws {
        let data = try corpusImage("exif_Landscape_6.jpg")
        let image = try coders.decode(data, options: DecodingOptions(targetSize: PixelSize(width: 150, height: 100)))
        #expect(image.width >= 150 && image.height >= 100)
        #expect(image.width < 600 && image.width > image.height)
    }

    @Test func webpShrinksOnLoadToTheTarget() throws {
        let data = try corpusImage("gen_anim.webp")
        let still = try coders.decode(data, options: DecodingOptions(firstFrameOnly: true))
        let lossy = try coders.encode(still, as: .webp, options: EncodingOptions(quality: 90))
        let small = try coders.decode(lossy, options: DecodingOptions(targetSize: PixelSize(width: 48, height: 20)))
        #expect(small.size == PixelSize(width: 48, height: 32))
    }

    @Test func shrinkFactorDecodesAsLibvipsLoadersShrink() throws {
        // JPEG: the DCT shrink 8, 4 or 2 not above the factor, each side rounded up (libvips' `jpegload` `shrink`).
        let jpeg = try corpusImage("gen_12mp.jpg")
        for (factor, size) in [(10.0, (500, 375)), (7.9, (1000, 750)), (2.5, (2000, 1500)), (1.9, (4000, 3000))] {
            let image = try coders.decode(jpeg, options: DecodingOptions(shrinkFactor: factor))
            #expect((image.width, image.height) == size, "\(factor)")
        }
        // WebP: each side divided by the factor, rounded to the nearest (libvips' `webpload` `scale`), whatever the
        // aspect: 1001/3.3333 and 1000/3.3333 both round to 300.
        let pixels = PixelBuffer(width: 1001, height: 1000, filledWith: RGBA(red: 10, green: 200, blue: 30))
        let webp = try coders.encode(Image(pixels: pixels), as: .webp, options: EncodingOptions(quality: 80))
        let small = try coders.decode(webp, options: DecodingOptions(shrinkFactor: 1000.0 / 300))
        #expect(small.size == PixelSize(width: 300, height: 300))
        let third = try coders.decode(webp, options: DecodingOptions(shrinkFactor: 3))
        #expect(third.size == PixelSize(width: 334, height: 333))
    }

    /// An AVIF's thumbnail (32x24 of 128x96) stands in for a smaller target it covers, as imgproxy's scale on load
    /// takes it; a larger target decodes the image.
    @Test func avifThumbnailCoveringTheTargetIsDecoded() throws {
        let data = try FormatsFixture.image("avif_thumb.avif")
        let small = try coders.decode(data, options: DecodingOptions(targetSize: PixelSize(width: 30, height: 20)))
        #expect(small.size == PixelSize(width: 32, height: 24) && small.format == .avif)
        let large = try coders.decode(data, options: DecodingOptions(targetSize: PixelSize(width: 40, height: 20)))
        #expect(large.size == PixelSize(width: 128, height: 96))
    }

    @Test(arguments: ["gen_baseline_420.jpg", "gen_progressive.jpg"])
    func partialJPEGGivesAFullSizePreview(name: String) throws {
        let data = try corpusImage(name)
        let preview = try #require(try coders.decodePartial(data.prefix(data.count * 2 / 3), options: .default))
        #expect(preview.size == PixelSize(width: 640, height: 480))
        let final = try coders.decode(data, options: .default)
        #expect(preview.pixels != final.pixels)
        #expect(ReferenceImage.difference(preview.pixels, final.pixels).mean < 60)
    }

    @Test func tooLittleDataGivesNoPreview() throws {
        let data = try corpusImage("gen_progressive.jpg")
        #expect(try coders.decodePartial(data.prefix(40), options: .default) == nil)
    }

    @Test(arguments: [
        ("gen_baseline_420.jpg", "jpeg", 640, 480, 1), ("pngsuite_basn6a08.png", "png", 32, 32, 1),
        ("gen_anim.png", "png", 96, 64, 5), ("gen_anim.gif", "gif", 120, 90, 8), ("gen_anim.webp", "webp", 96, 64, 5),
    ])
    func infoReadsTheHeaderOnly(name: String, format: String, width: Int, height: Int, frames: Int) throws {
        let info = try coders.info(of: try corpusImage(name))
        #expect(info.format.name == format)
        #expect(info.width == width && info.height == height)
        #expect(info.frameCount == frames)
    }

    @Test func infoOfABombDoesNotDecode() throws {
        let info = try coders.info(of: try corpusImage("bomb_50000x50000.png"))
        #expect(info.width == 50000 && info.height == 50000)
    }
}
