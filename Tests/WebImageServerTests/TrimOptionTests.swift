import Testing
import WebImage

@testable import WebImageServer

/// `trim`: parsing as imgproxy's `applyTrimOption`, every number checked, and the pixels as libvips's
/// `vips_find_trim` finds them, step alone and through the processor.
@Suite("Server: trim")
struct TrimOptionTests: OptionParsing {
    static let red = RGBA(red: 255, green: 0, blue: 0)

    /// A `width`×`height` image of `fill` with `color` in `rect`.
    static func image(_ width: Int, _ height: Int, fill: RGBA = .white, _ rects: [(PixelRect, RGBA)]) -> PixelBuffer {
        PixelBuffer(width: width, height: height) { buffer in
            for y in 0..<height {
                for x in 0..<width {
                    let color = rects.last { $0.0.contains(x, y) }?.1 ?? fill
                    let index = (y * width + x) * 4
                    (buffer[index], buffer[index + 1], buffer[index + 2], buffer[index + 3]) =
                        (color.red, color.green, color.blue, color.alpha)
                }
            }
        }
    }

    /// 60×40 white with a red 35×25 picture at (10, 5): cuts of 10 left, 15 right, 5 top, 10 bottom.
    static let bordered = image(60, 40, [(PixelRect(x: 10, y: 5, width: 35, height: 25), red)])

    /// The image `pixels` becomes through the trim step alone with the options of `path`.
    func trimmed(_ pixels: PixelBuffer, _ path: String, orientation: ImageOrientation = .up) throws -> PixelBuffer {
        let image = Image(frames: [ImageFrame(pixels: pixels)], sourceOrientation: orientation)
        var context = ProcessingContext(
            image: image, options: try options(path), limits: ServerLimits(), format: .png,
            planned: GeometryCalculator.geometry(
                source: pixels.size, options: ProcessingOptions(), maxResultDimension: 0),
            shrunkOnLoad: false, encoding: EncodingOptions())
        try TrimStep().apply(to: &context)
        return context.image.pixels
    }

    @Test func parsesAsImgproxy() throws {
        #expect(try options("t:10").trim == TrimOption(threshold: 10))
        #expect(
            try options("trim:5.5:ff0000:1:0").trim
                == TrimOption(threshold: 5.5, color: Self.red, equalHorizontal: true))
        #expect(try options("t:0:f00::t").trim == TrimOption(threshold: 0, color: Self.red, equalVertical: true))
        #expect(try options("t::ff0000:1").trim == nil, "an empty threshold turns the trim off")
        #expect(try options("t:10/t:").trim == nil)
        let kept = try options("t:10:ff0000:1:1/t:20").trim
        #expect(kept == TrimOption(threshold: 20, equalHorizontal: true, equalVertical: true), "equal_* are kept")
        #expect(
            try options("t:10:abc:x:no").trim == TrimOption(threshold: 10, color: RGBA(red: 170, green: 187, blue: 204))
        )
    }

    @Test(arguments: [
        "t:-1", "t:-0.5", "t:nan", "t:NaN", "t:inf", "t:Infinity", "t:-inf", "t:1e10", "t:0x10", "t:abc", "t:1:2:3:4:5",
        "t:10:ff00", "t:10:gg0000", "t:10:-ff000", "t:10:ff00000", "t:1e400",
    ])
    func refusesEveryBadArgument(path: String) {
        #expect(status(path) == 404, "\(path)")
    }

    @Test func theCanonicalURLWritesEveryArgument() throws {
        let path = try options("t:10/w:5").canonicalPath(source: "s")
        #expect(path.hasPrefix("/width:5/trim:10::0:0/"), "after crop, before padding: \(path)")
        #expect(try options("t:0.5:F00:1").canonicalPath(source: "s").hasPrefix("/trim:0.5:ff0000:1:0/"))
    }

    @Test func removesExactlyTheBorder() throws {
        let trimmed = try trimmed(Self.bordered, "t:10")
        #expect(trimmed.size == PixelSize(width: 35, height: 25))
        #expect(trimmed == PixelBuffer(width: 35, height: 25, filledWith: Self.red))
    }

    @Test func equalCutsKeepTheSmallerOfTheTwo() throws {
        #expect(try trimmed(Self.bordered, "t:10::1").size == PixelSize(width: 40, height: 25))
        #expect(try trimmed(Self.bordered, "t:10:::1").size == PixelSize(width: 35, height: 30))
        let both = try trimmed(Self.bordered, "t:10::1:1")
        #expect(both.size == PixelSize(width: 40, height: 30))
        #expect(both[0, 0] == Self.red && both[34, 24] == Self.red)
        #expect(both[35, 0] == .white && both[0, 25] == .white && both[39, 29] == .white)
        // Turned by the EXIF orientation, the stored image's horizontal is the shown image's vertical.
        #expect(try trimmed(Self.bordered, "t:10::1", orientation: .right).size == PixelSize(width: 35, height: 30))
    }

    @Test func theThresholdDecidesWhatIsBackground() throws {
        // A 3-pixel grey frame (15 below white) around the red picture.
        let framed = Self.image(
            60, 40,
            [
                (PixelRect(x: 7, y: 2, width: 41, height: 31), RGBA(red: 240, green: 240, blue: 240)),
                (PixelRect(x: 10, y: 5, width: 35, height: 25), Self.red),
            ])
        #expect(try trimmed(framed, "t:10").size == PixelSize(width: 41, height: 31))
        #expect(try trimmed(framed, "t:15").size == PixelSize(width: 35, height: 25), "more than the threshold")
        #expect(try trimmed(framed, "t:0").size == PixelSize(width: 41, height: 31))
    }

    @Test func medianFilteringIgnoresSpecks() throws {
        let specked = Self.image(
            60, 40,
            [
                (PixelRect(x: 10, y: 5, width: 35, height: 25), Self.red),
                (PixelRect(x: 2, y: 2, width: 1, height: 1), .black),
            ])
        #expect(try trimmed(specked, "t:10").size == PixelSize(width: 35, height: 25))
    }

    @Test func theColourIsTheTopLeftPixelsOrTheOneGiven() throws {
        // White, a blue band on the left, a red picture.
        let banded = Self.image(
            60, 40,
            [
                (PixelRect(x: 0, y: 0, width: 8, height: 40), RGBA(red: 0, green: 0, blue: 255)),
                (PixelRect(x: 20, y: 10, width: 20, height: 20), Self.red),
            ])
        #expect(try trimmed(banded, "t:10").size == PixelSize(width: 52, height: 40), "the blue band only")
        let white = try trimmed(banded, "t:10:fff")
        #expect(white.size == PixelSize(width: 40, height: 40), "the white sides only")
        #expect(white[0, 0] == RGBA(red: 0, green: 0, blue: 255))
        // The stored image's top-left pixel, wherever the EXIF orientation put it.
        #expect(try trimmed(banded, "t:10", orientation: .down).size == PixelSize(width: 40, height: 40))
    }

    @Test func transparencyIsFlattenedOnMagentaFirst() throws {
        let clear = Self.image(60, 40, fill: .clear, [(PixelRect(x: 10, y: 5, width: 35, height: 25), Self.red)])
        #expect(try trimmed(clear, "t:10").size == PixelSize(width: 35, height: 25))
        #expect(try trimmed(clear, "t:10:ff00ff").size == PixelSize(width: 35, height: 25))
        #expect(try trimmed(clear, "t:10:ffffff").size == PixelSize(width: 60, height: 40))
        #expect(try trimmed(clear, "t:10").isOpaque, "the pixels kept are the image's, not the flattened ones")
    }

    @Test func anImageThatIsAllBackgroundOrTooSmallIsLeftAsItIs() throws {
        let uniform = PixelBuffer(width: 30, height: 20, filledWith: Self.red)
        #expect(try trimmed(uniform, "t:10") == uniform)
        #expect(try trimmed(uniform, "t:0") == uniform)
        #expect(try trimmed(uniform, "t:10::1:1") == uniform, "everything would be removed")
        #expect(try trimmed(Self.bordered, "t:1000000000") == Self.bordered)
        let tiny = Self.image(2, 2, [(PixelRect(x: 0, y: 0, width: 1, height: 1), Self.red)])
        #expect(try trimmed(tiny, "t:10") == tiny)
    }

    @Test func theGeometryIsPlannedFromTheTrimmedSize() throws {
        let processor = ImageProcessor(coders: ImageCoders.default, limits: ServerLimits())
        let png = try ImageCoders.default.encode(Image(pixels: Self.bordered), as: .png, options: .default)
        // 35×25 scaled to a width of 20 is 20×14; the untrimmed 60×40 would be 20×13.
        let result = try processor.process(png, options: try options("t:10/w:20"), format: .png)
        #expect(result.size == PixelSize(width: 20, height: 14))
        let plain = try processor.process(png, options: try options("t:10"), format: .png)
        let image = try ImageCoders.default.decode(plain.data, options: .default)
        #expect(image.pixels == PixelBuffer(width: 35, height: 25, filledWith: Self.red))
    }
}

extension PixelRect {
    /// Whether the pixel at (`x`, `y`) is inside.
    fileprivate func contains(_ px: Int, _ py: Int) -> Bool {
        px >= x && px < x + width && py >= y && py < y + height
    }
}
