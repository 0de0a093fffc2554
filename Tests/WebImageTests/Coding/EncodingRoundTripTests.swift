import Foundation
import Testing
import WebImage

/// Encoding then decoding gives the image back: exactly for lossless formats, closely for lossy ones.
@Suite struct EncodingRoundTripTests {
    private let coders = ImageCoders.default

    private func gradient(width: Int = 64, height: Int = 48, alpha: Bool = false) -> Image {
        let pixels = PixelBuffer(width: width, height: height) { output in
            for y in 0..<height {
                for x in 0..<width {
                    let index = (y * width + x) * 4
                    output[index] = UInt8(x * 255 / (width - 1))
                    output[index + 1] = UInt8(y * 255 / (height - 1))
                    output[index + 2] = 128
                    output[index + 3] = alpha ? UInt8((x + y) * 255 / (width + height - 2)) : 255
                }
            }
        }
        return Image(pixels: pixels)
    }

    private func roundTrip(_ image: Image, _ format: ImageFormat, _ options: EncodingOptions = .default) throws -> Image
    {
        let data = try coders.encode(image, as: format, options: options)
        #expect(ImageFormat.sniff(data) == format)
        return try coders.decode(data, options: .default)
    }

    @Test func pngIsLossless() throws {
        for alpha in [false, true] {
            let image = gradient(alpha: alpha)
            #expect(try roundTrip(image, .png).pixels == image.pixels)
        }
    }

    @Test func losslessWebPIsExact() throws {
        let image = gradient(alpha: true)
        let decoded = try roundTrip(image, .webp, EncodingOptions(lossless: true))
        // Lossless WebP may rewrite the colour of fully transparent pixels, so compare premultiplied.
        #expect(ReferenceImage.difference(decoded.pixels, image.pixels).max == 0)
    }

    @Test(arguments: [ImageFormat.jpeg, .webp])
    func lossyFormatsStayClose(format: ImageFormat) throws {
        let image = gradient()
        let decoded = try roundTrip(image, format, EncodingOptions(quality: 95))
        #expect(decoded.size == image.size)
        let (mean, _) = ReferenceImage.difference(decoded.pixels, image.pixels)
        #expect(mean < 3)
    }

    @Test func jpegQualityChangesTheSize() throws {
        let image = gradient(width: 256, height: 256)
        let small = try coders.encode(image, as: .jpeg, options: EncodingOptions(quality: 20))
        let large = try coders.encode(image, as: .jpeg, options: EncodingOptions(quality: 98))
        #expect(small.count < large.count)
    }

    @Test func jpegFlattensTransparencyOverWhite() throws {
        let clear = Image(pixels: PixelBuffer(width: 16, height: 16, filledWith: .clear))
        let decoded = try roundTrip(clear, .jpeg, EncodingOptions(quality: 100))
        #expect(decoded.isOpaque)
        #expect(decoded.pixels[8, 8].red > 250 && decoded.pixels[8, 8].blue > 250)
    }

    @Test func animatedWebPKeepsFramesDurationsAndLoops() throws {
        let source = try coders.decode(try corpusImage("gen_anim.gif"), options: .default)
        let decoded = try roundTrip(source, .webp, EncodingOptions(lossless: true))
        #expect(decoded.frames.count == source.frames.count)
        #expect(decoded.loopCount == source.loopCount)
        for (got, expected) in zip(decoded.frames, source.frames) {
            #expect(abs(got.duration - expected.duration) < 0.002)
            #expect(ReferenceImage.difference(got.pixels, expected.pixels).max == 0)
        }
    }

    @Test func firstFrameOnlyEncodesAStill() throws {
        let source = try coders.decode(try corpusImage("gen_anim.gif"), options: .default)
        let decoded = try roundTrip(source, .webp, EncodingOptions(lossless: true, firstFrameOnly: true))
        #expect(decoded.frames.count == 1)
    }

    @Test func gifStillStaysClose() throws {
        let image = gradient(alpha: false)
        let decoded = try roundTrip(image, .gif)
        #expect(decoded.frames.count == 1)
        #expect(ReferenceImage.difference(decoded.pixels, image.pixels).mean < 4)
    }
}
