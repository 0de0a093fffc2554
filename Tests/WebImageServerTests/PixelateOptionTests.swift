import Testing
import WebImage

@testable import WebImageServer

/// `pixelate`: parsing as imgproxy's `applyPixelateOption`, and blocks as libvips's shrink and zoom make them.
@Suite("Server: pixelate")
struct PixelateOptionTests: OptionParsing {
    /// A `width`×`height` image where every pixel differs from its neighbours.
    static func gradient(_ width: Int, _ height: Int, alpha: Bool = false) -> PixelBuffer {
        PixelBuffer(width: width, height: height) { buffer in
            for y in 0..<height {
                for x in 0..<width {
                    let index = (y * width + x) * 4
                    buffer[index] = UInt8(x * 255 / max(1, width - 1))
                    buffer[index + 1] = UInt8(y * 255 / max(1, height - 1))
                    buffer[index + 2] = UInt8((x * 7 + y * 13) % 256)
                    buffer[index + 3] = alpha ? UInt8((x * 31 + y * 17) % 256) : 255
                }
            }
        }
    }

    /// Whether every `size`×`size` block from the top-left corner is one colour.
    static func hasUniformBlocks(_ pixels: PixelBuffer, size: Int) -> Bool {
        (0..<pixels.height).allSatisfy { y in
            (0..<pixels.width).allSatisfy { x in pixels[x, y] == pixels[x - x % size, y - y % size] }
        }
    }

    /// The image `pixels` becomes through the filters step alone with the options of `path`.
    func filtered(_ pixels: PixelBuffer, _ path: String) throws -> PixelBuffer {
        var context = ProcessingContext(
            image: Image(pixels: pixels), options: try options(path), limits: ServerLimits(), format: .png,
            planned: GeometryCalculator.geometry(
                source: pixels.size, options: ProcessingOptions(), maxResultDimension: 0),
            shrunkOnLoad: false, encoding: EncodingOptions())
        try FiltersStep().apply(to: &context)
        return context.image.pixels
    }

    @Test func parsesAPixelSizeWhereZeroAndOneAreOff() throws {
        #expect(try options("pixelate:8").pixelate == 8)
        #expect(try options("pix:+3").pixelate == 3)
        #expect(try options("pix:1").pixelate == 0)
        #expect(try options("pix:0").pixelate == 0)
        #expect(try options("pix:1073741824").pixelate == 1 << 30)
        #expect(try options("pix:8/w:5").canonicalPath(source: "s").hasPrefix("/width:5/pixelate:8/"))
        #expect(
            try options("sh:1/pix:8/q:50").canonicalPath(source: "s").hasPrefix("/sharpen:1/pixelate:8/quality:50/"))
        #expect(try options("pix:1").cacheIdentity == ProcessingOptions().cacheIdentity, "1 changes nothing")
    }

    @Test(arguments: [
        "pix:-1", "pix:1.5", "pix:nan", "pix:inf", "pix:1e3", "pix:0x10", "pix:", "pix:abc",
        "pix:99999999999999999999", "pix:-9223372036854775808", "pix:8:9",
    ])
    func refusesEveryBadArgument(path: String) {
        #expect(status(path) == 404, "\(path)")
    }

    @Test func blocksAreUniformAlignedTopLeftAndTheSizeIsKept() throws {
        let source = Self.gradient(10, 7)
        let result = try filtered(source, "pix:4")
        #expect(result.size == source.size)
        #expect(Self.hasUniformBlocks(result, size: 4))
        #expect(result[0, 0] != result[4, 0] && result[0, 0] != result[0, 4] && result[4, 0] != result[8, 0])
        // A whole block is the mean of its pixels.
        let block = (0..<4).flatMap { y in (0..<4).map { x in Int(source[x, y].red) } }
        #expect(Int(result[0, 0].red) == (block.reduce(0, +) + 8) / 16)
        // A block cut by the edge averages its mirror image too: columns 8, 9, then 9, 8.
        let edge = (0..<4).flatMap { y in [8, 9, 9, 8].map { x in Int(source[x, y].red) } }
        #expect(Int(result[8, 0].red) == (edge.reduce(0, +) + 8) / 16)
    }

    @Test func aSizeLargerThanTheImageIsOneBlock() throws {
        let result = try filtered(Self.gradient(10, 7), "pix:1000000")
        #expect(result.size == PixelSize(width: 10, height: 7))
        #expect(Self.hasUniformBlocks(result, size: 10))
        #expect(try filtered(Self.gradient(10, 7), "pix:1") == Self.gradient(10, 7))
        #expect(try filtered(Self.gradient(1, 1), "pix:5") == Self.gradient(1, 1))
    }

    @Test func alphaIsAveragedAndColoursAreWeightedOnlyAfterABlur() throws {
        let source = Self.gradient(8, 8, alpha: true)
        let straight = try filtered(source, "pix:8")
        let alphas = (0..<8).flatMap { y in (0..<8).map { x in Int(source[x, y].alpha) } }
        #expect(Int(straight[3, 3].alpha) == (alphas.reduce(0, +) + 32) / 64)
        let reds = (0..<8).flatMap { y in (0..<8).map { x in Int(source[x, y].red) } }
        #expect(Int(straight[3, 3].red) == (reds.reduce(0, +) + 32) / 64)
        #expect(Self.hasUniformBlocks(try filtered(source, "pix:8/bl:0.5"), size: 8))
        // Transparent black beside opaque red: straight, the mean is dark; premultiplied, it stays red.
        let pair = PixelBuffer(width: 2, height: 1, bytes: [0, 0, 0, 0, 255, 0, 0, 255])
        let straightPair = try Pixelate(blockSize: 2).transform(pair)
        #expect(straightPair[0, 0] == RGBA(red: 128, green: 0, blue: 0, alpha: 128))
        let premultipliedPair = try Pixelate(blockSize: 2, premultiplied: true).transform(pair)
        #expect(premultipliedPair[1, 0] == RGBA(red: 255, green: 0, blue: 0, alpha: 128))
    }

    @Test func pixelationFollowsTheScale() throws {
        let processor = ImageProcessor(coders: ImageCoders.default, limits: ServerLimits())
        let png = try ImageCoders.default.encode(Image(pixels: Self.gradient(60, 40)), as: .png, options: .default)
        let result = try processor.process(png, options: try options("w:30/pix:4"), format: .png)
        #expect(result.size == PixelSize(width: 30, height: 20))
        let image = try ImageCoders.default.decode(result.data, options: .default)
        #expect(Self.hasUniformBlocks(image.pixels, size: 4))
        #expect(!Self.hasUniformBlocks(image.pixels, size: 8))
    }
}
