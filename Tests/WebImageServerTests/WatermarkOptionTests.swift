import Testing
import WebImage

@testable import WebImageServer

/// `watermark`: parsing as imgproxy's `applyWatermarkOption`, with every number checked.
@Suite("Server: watermark option")
struct WatermarkOptionTests: OptionParsing {
    @Test func parsesEveryArgument() throws {
        let full = try options("watermark:0.5:soea:10:-5:0.25").watermark
        #expect(full.opacity == 0.5)
        #expect(full.position == .southEast)
        #expect(full.x == 10 && full.y == -5 && full.scale == 0.25)
        let short = try options("wm:1").watermark
        #expect(short.opacity == 1 && short.position == .center && short.x == 0 && short.y == 0 && short.scale == 0)
        #expect(try options("wm:0.3:re:0.1:0.2").watermark.position == .replicate)
        #expect(try options("wm:1:re:-10:-0.5").watermark.x == -10, "negative spacings, as imgproxy's parseFloat")
        #expect(try options("wm:0").watermark.isEnabled == false)
        #expect(
            try options("wm:1:ce:0:0:1:pro:args").watermark == options("wm:1:ce:0:0:1").watermark,
            "imgproxy takes seven arguments")
        for name in ["ce", "no", "so", "ea", "we", "noea", "nowe", "soea", "sowe", "re"] {
            #expect(try options("wm:1:\(name)").watermark.position.name == name)
        }
    }

    @Test func anEmptyOrMissingArgumentKeepsItsValue() throws {
        let kept = try options("wm:1:soea:10:20:0.5/wm:0.4").watermark
        #expect(kept.opacity == 0.4 && kept.position == .southEast && kept.x == 10 && kept.y == 20 && kept.scale == 0.5)
        let gaps = try options("wm:1:nowe:3:4:0.5/wm:0.2::::2").watermark
        #expect(gaps.position == .northWest && gaps.x == 3 && gaps.y == 4 && gaps.scale == 2)
    }

    @Test func theCanonicalPathWritesTheWholeOptionBetweenPixelateAndQuality() throws {
        let path = try options("q:50/wm:0.5:soea:10/pix:4").canonicalPath(source: "s")
        #expect(path.hasPrefix("/pixelate:4/watermark:0.5:soea:10:0/quality:50/"), "\(path)")
        let scaled = try options("wm:0.5:re:-2:0:0.25").canonicalPath(source: "s")
        #expect(scaled.hasPrefix("/watermark:0.5:re:-2:0:0.25/"), "\(scaled)")
        #expect(try options(String(scaled.dropFirst().prefix { $0 != "/" })).watermark.scale == 0.25)
        #expect(try options("wm:0").canonicalPath(source: "s") == ProcessingOptions().canonicalPath(source: "s"))
        #expect(try options("wm:0.5").cacheIdentity != options("wm:0.6").cacheIdentity)
        #expect(try options("wm:1:ce:0.25").cacheIdentity != options("wm:1:ce:0.5").cacheIdentity)
    }

    @Test(arguments: [
        "wm:", "wm:1.5", "wm:-0.1", "wm:nan", "wm:NaN", "wm:inf", "wm:-Infinity", "wm:1e400", "wm:0x1",
        "wm:0.5x", "wm:1:sm", "wm:1:fp", "wm:1:ch", "wm:1:CE", "wm:1:xx", "wm:1:ce:nan", "wm:1:ce:inf",
        "wm:1:ce:1e10", "wm:1:ce:0:-1e400", "wm:1:ce:0:0x10", "wm:1:ce:0:0:-1", "wm:1:ce:0:0:nan",
        "wm:1:ce:0:0:inf", "wm:1:ce:0:0:1e10", "wm:1:ce:0:0:abc", "wm:1:ce:0:0:0:a:b:c",
        // A scale of 0, as imgproxy 4's parsePositiveNonZeroFloat refuses it (its docs' "0 keeps the size" is not
        // what it parses).
        "wm:1:ce:0:0:0", "wm:1:ce:0:0:-0.5", "wm:1:re:0:0:0.0",
    ])
    func refusesEveryBadArgument(path: String) {
        #expect(status(path) == 404, "\(path)")
    }
}
