import Foundation
import Testing
import WebImage
import WebImageTesting

/// GIF and APNG output: every frame, its duration and the loop count survive encode then decode, for every
/// animated source the corpus has.
@Suite struct AnimationEncodingTests {
    private let coders = ImageCoders.default

    @Test(arguments: ["gen_anim.gif", "gen_anim.png", "gen_anim.webp"], [ImageFormat.gif, .png])
    func animationRoundTrips(source name: String, format: ImageFormat) throws {
        let source = try coders.decode(try corpusImage(name), options: .default)
        try #require(source.frames.count > 1)
        let data = try coders.encode(source, as: format, options: .default)
        #expect(ImageFormat.sniff(data) == format)
        let decoded = try coders.decode(data, options: .default)
        #expect(decoded.frames.count == source.frames.count)
        #expect(decoded.loopCount == source.loopCount)
        #expect(decoded.size == source.size)
        for (got, expected) in zip(decoded.frames, source.frames) {
            #expect(abs(got.duration - expected.duration) <= (format == .gif ? 0.005 : 0.0005))
            let difference = ReferenceImage.difference(got.pixels, expected.pixels)
            // APNG is lossless; GIF is quantized to 256 colours with dithering.
            #expect(difference.mean <= (format == .gif ? 6 : 0), "mean \(difference.mean)")
        }
    }

    @Test(arguments: [0, 1, 3])
    func loopCountSurvives(loops: Int) throws {
        let frames = [RGBA.black, .white, RGBA(red: 200, green: 30, blue: 30)].map {
            ImageFrame(pixels: PixelBuffer(width: 8, height: 6, filledWith: $0), duration: 0.07)
        }
        let image = Image(frames: frames, loopCount: loops)
        for format in [ImageFormat.gif, .png, .webp] {
            let decoded = try coders.decode(try coders.encode(image, as: format, options: .default), options: .default)
            #expect(decoded.loopCount == loops, "\(format)")
            #expect(decoded.frames.map(\.duration) == [0.07, 0.07, 0.07], "\(format)")
        }
    }

    @Test func gifKeepsTransparencyAndDithersGradients() throws {
        var bytes = [UInt8]()
        for y in 0..<32 {
            for x in 0..<64 {
                bytes += [UInt8(x * 4), UInt8(y * 8), 128, x < 8 ? 0 : 255]
            }
        }
        let image = Image(pixels: PixelBuffer(width: 64, height: 32, bytes: bytes))
        let data = try coders.encode(image, as: .gif, options: .default)
        let decoded = try coders.decode(data, options: .default)
        #expect(decoded.pixels[2, 2].alpha == 0)
        #expect(decoded.pixels[40, 20].alpha == 255)
        #expect(ReferenceImage.difference(decoded.pixels, image.pixels).mean < 4)
        let still = try coders.encode(
            try coders.decode(try corpusImage("gen_anim.gif"), options: .default), as: .gif,
            options: EncodingOptions(firstFrameOnly: true))
        #expect(try coders.decode(still, options: .default).frames.count == 1)
    }

    @Test func apngDecodesInOtherTools() throws {
        let source = try coders.decode(try corpusImage("gen_anim.gif"), options: .default)
        let data = try coders.encode(source, as: .png, options: .default)
        let info = try coders.info(of: data)
        #expect(info.frameCount == source.frames.count)
        // The default image is the first frame, so viewers without APNG support show it.
        let first = try coders.decode(data, options: DecodingOptions(firstFrameOnly: true))
        #expect(first.frames.count == 1 && first.pixels == source.pixels)
    }

    /// A GIF's frame count comes from its blocks, before any decode: a real animated GIF, a still, one of ours, and
    /// one cut inside its third frame (the two complete ones).
    @Test func aGIFsInfoCountsItsFrames() throws {
        let animated = try Fixtures.data("corpus/images/gen_anim.gif")
        #expect(try ImageCoders.default.info(of: animated).frameCount == 8)
        #expect(try ImageCoders.default.info(of: try Fixtures.data("corpus/images/gen_still.gif")).frameCount == 1)
        let frames = (0..<3).map { index in
            let red = RGBA(red: UInt8(index * 90), green: 0, blue: 0)
            return ImageFrame(pixels: PixelBuffer(width: 8, height: 8, filledWith: red))
        }
        let ours = try ImageCoders.default.encode(Image(frames: frames), as: .gif, options: .default)
        #expect(try ImageCoders.default.info(of: ours).frameCount == 3)
        #expect(try ImageCoders.default.info(of: ours.prefix(ours.count - 4)).frameCount == 2)
        #expect(try ImageCoders.default.decode(ours.prefix(ours.count - 4), options: .default).frames.count == 2)
    }
}
