import Testing
import WebImage

@testable import WebImageServer

/// ``WatermarkStep``: a known watermark over a known image, placed, blended, tiled and scaled as imgproxy does.
@Suite("Server: watermark pixels")
struct WatermarkPixelTests {
    static let blue = RGBA(red: 0, green: 0, blue: 255)
    static let red = RGBA(red: 255, green: 0, blue: 0)
    static let green = RGBA(red: 0, green: 255, blue: 0)
    /// A 100×60 opaque blue image.
    static let base = PixelBuffer(width: 100, height: 60, filledWith: blue)

    /// `pixels` after the watermark step alone with the options of `path` and `watermark` as the server's image.
    static func watermarked(
        _ pixels: PixelBuffer, _ path: String, watermark: PixelBuffer?, opacity: Double = 1,
        limits: ServerLimits = ServerLimits()
    ) throws -> ProcessingContext {
        let planned = try ProcessingStepTests.context(pixels, path, limits: limits)
        var context = ProcessingContext(
            image: planned.image, options: planned.options, limits: limits, format: .png, planned: planned.geometry,
            shrunkOnLoad: false, encoding: EncodingOptions(),
            watermark: watermark.map { WatermarkImage(pixels: $0, opacity: opacity) })
        try WatermarkStep().apply(to: &context)
        return context
    }

    static func pixels(_ path: String, watermark: PixelBuffer, opacity: Double = 1) throws -> PixelBuffer {
        try watermarked(base, path, watermark: watermark, opacity: opacity).image.pixels
    }

    /// Whether `pixels` is `color` exactly on `rect` and nowhere else.
    static func isPainted(_ pixels: PixelBuffer, _ rect: PixelRect, _ color: RGBA) -> Bool {
        (0..<pixels.height).allSatisfy { y in
            (0..<pixels.width).allSatisfy { x in
                let inside = x >= rect.x && x < rect.x + rect.width && y >= rect.y && y < rect.y + rect.height
                return inside ? pixels[x, y] == color : pixels[x, y] != color
            }
        }
    }

    @Test func centreCentresTheWatermark() throws {
        let result = try Self.pixels("wm:1", watermark: PixelBuffer(width: 11, height: 7, filledWith: Self.red))
        // (100 - 11) / 2 and (60 - 7) / 2, rounded as imgproxy's calcPosition: the centre pixel (50, 30) is its centre.
        #expect(Self.isPainted(result, PixelRect(x: 45, y: 27, width: 11, height: 7), Self.red))
    }

    @Test func cornersAndEdgesTakeTheOffsetsAwayFromTheirEdges() throws {
        let mark = PixelBuffer(width: 11, height: 7, filledWith: Self.red)
        let southEast = try Self.pixels("wm:1:soea:5:3", watermark: mark)
        #expect(Self.isPainted(southEast, PixelRect(x: 84, y: 50, width: 11, height: 7), Self.red))
        let northWest = try Self.pixels("wm:1:nowe:5:3", watermark: mark)
        #expect(Self.isPainted(northWest, PixelRect(x: 5, y: 3, width: 11, height: 7), Self.red))
        let north = try Self.pixels("wm:1:no:0:0.5", watermark: mark)
        #expect(Self.isPainted(north, PixelRect(x: 45, y: 30, width: 11, height: 7), Self.red), "a fraction of 60")
        let west = try Self.pixels("wm:1:we:-5", watermark: mark)
        #expect(Self.isPainted(west, PixelRect(x: 0, y: 27, width: 6, height: 7), Self.red), "cut at the edge")
    }

    @Test func pixelOffsetsAreScaledByTheDPR() throws {
        let context = try Self.watermarked(
            Self.base, "dpr:2/el:1/wm:1:nowe:5:3", watermark: PixelBuffer(width: 4, height: 4, filledWith: Self.red))
        #expect(context.geometry.dprScale == 2)
        #expect(Self.isPainted(context.image.pixels, PixelRect(x: 10, y: 6, width: 4, height: 4), Self.red))
    }

    @Test func offsetsFarOutsideKeepOnePixelInsideAsImgproxysCalcPosition() throws {
        let mark = PixelBuffer(width: 11, height: 7, filledWith: Self.red)
        let corner = try Self.pixels("wm:1:soea:1000000000:-1000000000", watermark: mark)
        #expect(Self.isPainted(corner, PixelRect(x: 0, y: 59, width: 1, height: 1), Self.red))
        let edge = try Self.pixels("wm:1:nowe:-1000000000", watermark: mark)
        #expect(Self.isPainted(edge, PixelRect(x: 0, y: 0, width: 1, height: 7), Self.red))
    }

    @Test func opacityBlendsAndTheSettingMultipliesIt() throws {
        let mark = PixelBuffer(width: 11, height: 7, filledWith: Self.red)
        let half = try Self.pixels("wm:0.5", watermark: mark)
        #expect(half[50, 30] == RGBA(red: 128, green: 0, blue: 128))
        #expect(try Self.pixels("wm:1", watermark: mark, opacity: 0.5)[50, 30] == half[50, 30])
        #expect(try Self.pixels("wm:0.5", watermark: mark, opacity: 0.5)[50, 30] == RGBA(red: 64, green: 0, blue: 191))
        let translucent = PixelBuffer(width: 11, height: 7, filledWith: RGBA(red: 255, green: 0, blue: 0, alpha: 128))
        #expect(try Self.pixels("wm:1", watermark: translucent)[50, 30] == RGBA(red: 128, green: 0, blue: 127))
        #expect(try Self.pixels("wm:0", watermark: mark) == Self.base)
    }

    @Test func overTransparentPixelsTheAlphaIsCompositedStraight() throws {
        let clear = PixelBuffer(width: 20, height: 20, filledWith: RGBA(red: 0, green: 0, blue: 0, alpha: 0))
        let context = try Self.watermarked(
            clear, "wm:0.5", watermark: PixelBuffer(width: 4, height: 4, filledWith: Self.red))
        #expect(context.image.pixels[10, 10] == RGBA(red: 255, green: 0, blue: 0, alpha: 128))
        #expect(context.image.pixels[0, 0] == RGBA(red: 0, green: 0, blue: 0, alpha: 0))
    }

    @Test func replicateTilesWithTheOffsetsAsSpacing() throws {
        let mark = PixelBuffer(width: 10, height: 10, filledWith: Self.red)
        let packed = try Self.pixels("wm:1:re", watermark: mark)
        #expect(packed == PixelBuffer(width: 100, height: 60, filledWith: Self.red))
        // Cells of 20: five across and three down, exactly, each tile 5 pixels into its cell.
        let spaced = try Self.pixels("wm:1:re:10:10", watermark: mark)
        for y in 0..<60 {
            for x in 0..<100 {
                let inTile = (x % 20) >= 5 && (x % 20) < 15 && (y % 20) >= 5 && (y % 20) < 15
                #expect(spaced[x, y] == (inTile ? Self.red : Self.blue), "(\(x), \(y))")
            }
        }
    }

    /// A negative spacing cuts each tile to a smaller cell, as imgproxy's padding of the watermark through libvips'
    /// `embed` does: half the cut (rounded toward 0) before, the rest after; nothing left is refused.
    @Test func aNegativeReplicateSpacingCutsTheTiles() throws {
        // 10×10: a green frame of 2 pixels on the left and top, 3 on the right and bottom, red inside.
        let mark = PixelBuffer(width: 10, height: 10) { buffer in
            for y in 0..<10 {
                for x in 0..<10 {
                    let inside = (2..<7).contains(x) && (2..<7).contains(y)
                    let color = inside ? Self.red : Self.green
                    let index = (y * 10 + x) * 4
                    (buffer[index], buffer[index + 1], buffer[index + 2], buffer[index + 3]) =
                        (color.red, color.green, color.blue, 255)
                }
            }
        }
        let cut = try Self.pixels("wm:1:re:-5:-5", watermark: mark)
        #expect(cut == PixelBuffer(width: 100, height: 60, filledWith: Self.red))
        let framed = try Self.pixels("wm:1:re", watermark: mark)
        #expect((0..<100).contains { framed[$0, 30] == Self.green })
        #expect(throws: ImageServerError.self) { try Self.pixels("wm:1:re:-10:0", watermark: mark) }
    }

    @Test func replicateCentresAnOddNumberOfTiles() throws {
        // 30×30 tiles, marked green at their top-left pixel: five across (-25, 5, 35, 65, 95), three down (-15, 15, 45).
        var bytes = PixelBuffer(width: 30, height: 30, filledWith: Self.red).bytes
        bytes[1] = 255
        bytes[0] = 0
        let result = try Self.pixels("wm:1:re", watermark: PixelBuffer(width: 30, height: 30, bytes: bytes))
        let marks = (0..<60).flatMap { y in (0..<100).filter { result[$0, y] == Self.green }.map { [$0, y] } }
        #expect(marks == [[5, 15], [35, 15], [65, 15], [95, 15], [5, 45], [35, 45], [65, 45], [95, 45]])
    }

    @Test func scaleFitsTheWatermarkIntoAShareOfTheImage() throws {
        let mark = PixelBuffer(width: 10, height: 10, filledWith: Self.red)
        // 0.5 × 100×60 is 50×30: the square watermark is enlarged to 30×30.
        let enlarged = try Self.pixels("wm:1:nowe:0:0:0.5", watermark: mark)
        #expect(Self.isPainted(enlarged, PixelRect(x: 0, y: 0, width: 30, height: 30), Self.red))
        let reduced = try Self.pixels("wm:1:nowe:0:0:0.05", watermark: mark)
        #expect(Self.isPainted(reduced, PixelRect(x: 0, y: 0, width: 3, height: 3), Self.red))
    }

    @Test func aHugeScaleIsRefusedPastTheBudget() throws {
        var limits = ServerLimits()
        limits.maxResultDimension = 0
        let mark = PixelBuffer(width: 10, height: 10, filledWith: Self.red)
        #expect(throws: ImageServerError.self) {
            try Self.watermarked(Self.base, "wm:1:ce:0:0:1000000000", watermark: mark, limits: limits)
        }
        let spaced = try Self.pixels("wm:1:re:1000000000:1000000000", watermark: mark)
        #expect(Self.isPainted(spaced, PixelRect(x: 45, y: 25, width: 10, height: 10), Self.red), "one centred tile")
    }

    @Test func everyFrameOfAnAnimationIsWatermarked() throws {
        let frames = [Self.base, PixelBuffer(width: 100, height: 60, filledWith: Self.green)].map {
            ImageFrame(pixels: $0, duration: 0.1)
        }
        let planned = try ProcessingStepTests.context(Self.base, "wm:1:soea")
        var context = ProcessingContext(
            image: Image(frames: frames), options: planned.options, limits: planned.limits, format: .webp,
            planned: planned.geometry, shrunkOnLoad: false, encoding: EncodingOptions(),
            watermark: WatermarkImage(pixels: PixelBuffer(width: 4, height: 4, filledWith: Self.red), opacity: 1))
        try WatermarkStep().apply(to: &context)
        #expect(context.image.frames.count == 2)
        #expect(context.image.frames.allSatisfy { $0.pixels[99, 59] == Self.red && $0.duration == 0.1 })
        #expect(context.image.frames[1].pixels[0, 0] == Self.green)
    }

    @Test func withoutAWatermarkImageTheOptionChangesNothing() throws {
        #expect(try Self.watermarked(Self.base, "wm:1:re", watermark: nil).image.pixels == Self.base)
    }
}
