import Testing
import WebImage

@testable import WebImageServer

/// imgproxy's scale on load: the preshrink planned from the header, what the decoder is asked for, and the crop and
/// scale made again for the size it gave, with imgproxy's rounding (its `processing/scale_on_load.go`).
@Suite("Server: scale on load")
struct ScaleOnLoadTests {
    static let big = "/fixtures/corpus/images/gen_12mp.jpg"

    func options(_ path: String) throws -> ProcessingOptions {
        try ImageURLParser(signer: nil).parse("/x/\(path)/plain/http://e.example/a.jpg", now: 0).options
    }

    func planned(_ path: String, source: (Int, Int) = (4000, 3000), loaded: PixelSize? = nil) throws -> ResultGeometry {
        GeometryCalculator.geometry(
            source: PixelSize(width: source.0, height: source.1), options: try options(path), maxResultDimension: 8192,
            loaded: loaded)
    }

    /// 4000×3000, `c:1004:1004:nowe:100:50/z:0.1`: at full size 1004 × 0.1 = 100.4 → 100. The preshrink is 10, so a
    /// JPEG loads at 1/8 (500×375): the crop is 1004 / 8 = 125.5 → 126 and its offsets 100 / 8 = 12.5 → 12 and
    /// 50 / 8 = 6.25 → 6 (half to even), the scale 0.1 × 8 = 0.8, and 126 × 0.8 = 100.8 → 101: imgproxy's result is
    /// a pixel larger.
    @Test func theCropIsShrunkAndRoundedAsImgproxyDoes() throws {
        let full = try planned("c:1004:1004:nowe:100:50/z:0.1")
        #expect(full.preshrink == 10)
        #expect(full.crop == .rect(PixelRect(x: 100, y: 50, width: 1004, height: 1004)))
        #expect(full.scaledSize == PixelSize(width: 100, height: 100))
        let shrunk = try planned("c:1004:1004:nowe:100:50/z:0.1", loaded: PixelSize(width: 500, height: 375))
        #expect(shrunk.crop == .rect(PixelRect(x: 12, y: 6, width: 126, height: 126)))
        #expect(shrunk.scaledSize == PixelSize(width: 101, height: 101))
        #expect(shrunk.resultSize == PixelSize(width: 101, height: 101))
        // Relative offsets and focus points stay as they are.
        let relative = try planned("c:1004:1004:fp:0.25:0.75/z:0.1", loaded: PixelSize(width: 500, height: 375))
        #expect(relative.crop == .rect(PixelRect(x: 62, y: 218, width: 126, height: 126)))
    }

    /// Without a crop the result has the planned size: the scale left after the shrink makes it again.
    @Test func withoutACropTheSizeIsThePlannedOne() throws {
        for path in ["rs:fit:333:333", "w:100", "rs:fill:120:80", "h:700"] {
            let full = try planned(path)
            let shrunk = try planned(path, loaded: PixelSize(width: 500, height: 375))
            #expect(shrunk.scaledSize == full.scaledSize, "\(path)")
            #expect(shrunk.resultSize == full.resultSize, "\(path)")
        }
        // An exact shrink leaves nothing to scale.
        let exact = try planned("w:500", loaded: PixelSize(width: 500, height: 375))
        #expect(exact.scaledSize == PixelSize(width: 500, height: 375))
    }

    /// What the decoder is asked for: a JPEG's DCT shrink (8, 4 or 2), a WebP's exact preshrink, a HEIC thumbnail
    /// that covers the source divided by the preshrink (upright, so turned back for `rotate`); nothing for formats
    /// without a cheap smaller decode or when there is nothing to shrink. A crop no longer prevents it.
    @Test func theDecoderIsAskedForImgproxysShrink() throws {
        #expect(LoadPlan.shrink(try planned("w:100"), format: .jpeg, rotate: 0)?.factor == 8)
        #expect(LoadPlan.shrink(try planned("w:1500"), format: .jpeg, rotate: 0)?.factor == 2)
        #expect(LoadPlan.shrink(try planned("w:2500"), format: .jpeg, rotate: 0) == nil)
        #expect(LoadPlan.shrink(try planned("c:1004:1004/z:0.1"), format: .jpeg, rotate: 0)?.factor == 8)
        #expect(LoadPlan.shrink(try planned("w:300"), format: .webp, rotate: 0)?.factor == 4000.0 / 300)
        #expect(LoadPlan.shrink(try planned("w:100"), format: .png, rotate: 0) == nil)
        #expect(LoadPlan.shrink(try planned("w:5000"), format: .jpeg, rotate: 0) == nil)
        let heic = LoadPlan.shrink(try planned("w:100"), format: .heic, rotate: 0)
        #expect(heic?.factor == nil && heic?.targetSize == PixelSize(width: 100, height: 75))
        // 128x96 to 30 wide: preshrink 96/23; a 32x24 thumbnail (4 both ways) is within it, exactly 23 high.
        let avif = LoadPlan.shrink(try planned("w:30", source: (128, 96)), format: .avif, rotate: 0)
        #expect(avif?.targetSize == PixelSize(width: 31, height: 23))
        // Turned by 90°, the plan is for 3000×4000: preshrink 30, the thumbnail at least 100×134 turned back.
        let turned = LoadPlan.shrink(try planned("w:100", source: (3000, 4000)), format: .heic, rotate: 90)
        #expect(turned?.targetSize == PixelSize(width: 134, height: 100))
    }

    @Test func trimAndTheSettingTurnItOff() throws {
        let info = ImageInfo(format: .jpeg, width: 4000, height: 3000)
        func plan(_ path: String, shrinks: Bool = true) throws -> LoadPlan {
            try LoadPlan(
                info: info, options: try options(path), requested: .jpeg, formats: FormatChoice(preferred: [.jpeg]),
                limits: ServerLimits(), shrinksOnLoad: shrinks)
        }
        #expect(try plan("w:100").decoding.shrinkFactor == 8)
        #expect(try plan("w:100", shrinks: false).decoding.shrinkFactor == nil)
        #expect(try plan("t:10/w:100").decoding.shrinkFactor == nil)
    }

    /// Through the server, the 12-megapixel JPEG: imgproxy's 101×101 with shrink on load, 100×100 without
    /// (`--disable-shrink-on-load`).
    @Test func theServerAnswersImgproxysSizes() async throws {
        for (shrinks, side) in [(true, 101), (false, 100)] {
            try await ServerHarness.run(configure: { $0.shrinksOnLoad = shrinks }) { harness in
                let response = try await harness.get(harness.url("c:1004:1004:nowe:100:50/z:0.1", Self.big))
                #expect(response.status == .ok)
                let image = try ServerHarness.image(response)
                #expect((image.width, image.height) == (side, side))
            }
        }
    }
}
