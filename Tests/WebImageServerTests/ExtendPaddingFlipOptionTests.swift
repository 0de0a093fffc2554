import Testing
import WebImage

@testable import WebImageServer

/// `extend_aspect_ratio`, `padding` and `flip`: parsing as imgproxy's `apply.go`, geometry as its `prepare.go`,
/// `extend.go` and `padding.go`, and the canonical URL.
@Suite("Server: extend_aspect_ratio, padding, flip")
struct ExtendPaddingFlipOptionTests: OptionParsing {
    func geometry(_ path: String, limit: Int = 0) throws -> ResultGeometry {
        GeometryCalculator.geometry(
            source: PixelSize(width: 200, height: 100), options: try options(path), maxResultDimension: limit)
    }

    func size(_ path: String, limit: Int = 0) throws -> (Int, Int) {
        let size = try geometry(path, limit: limit).resultSize
        return (size.width, size.height)
    }

    @Test func extendAspectRatioTakesItsThreeNamesAndAGravity() throws {
        for name in ["extend_aspect_ratio", "extend_ar", "exar"] {
            let o = try options("\(name):1:so:5:6")
            #expect(o.extendAspectRatio && o.extendAspectRatioGravity == GravityOption(.south, x: 5, y: 6), "\(name)")
            #expect(!o.extend)
        }
        #expect(try options("exar:1").extendAspectRatioGravity == .center)
        #expect(try !options("exar:1/exar:0").extendAspectRatio)
        for bad in ["exar:1:sm", "exar:1:fp:2:0", "exar:1:no:x", "exar:1:no:1:2:3", "exar:1:zz"] {
            #expect(status(bad) == 404, "\(bad)")
        }
    }

    @Test func paddingIsCSSLikeShorthand() throws {
        for name in ["padding", "pd"] {
            #expect(try options("\(name):1:2:3:4").padding == Padding(top: 1, right: 2, bottom: 3, left: 4))
        }
        #expect(try options("pd:5").padding == Padding(top: 5, right: 5, bottom: 5, left: 5))
        #expect(try options("pd:5:7").padding == Padding(top: 5, right: 7, bottom: 5, left: 7))
        #expect(try options("pd:5:7:9").padding == Padding(top: 5, right: 7, bottom: 9, left: 7))
        #expect(try options("pd:5::9").padding == Padding(top: 5, right: 5, bottom: 9, left: 5))
        #expect(try options("pd:5/pd::2").padding == Padding(top: 5, right: 2, bottom: 5, left: 2))
        #expect(try options("pd:0").padding.isEnabled == false)
        for bad in ["pd:-1", "pd:1.5", "pd:1e9", "pd:1:2:3:4:5", "pd:x", "pd:1:-2", "pd:0x10"] {
            #expect(status(bad) == 404, "\(bad)")
        }
    }

    @Test func flipTakesTwoBooleans() throws {
        for name in ["flip", "fl"] {
            let o = try options("\(name):1:t")
            #expect(o.flipHorizontal && o.flipVertical)
        }
        let vertical = try options("fl:0:1")
        #expect(!vertical.flipHorizontal && vertical.flipVertical)
        let kept = try options("fl:1/fl::1")
        #expect(kept.flipHorizontal && kept.flipVertical)
        #expect(try !options("fl:yes").flipHorizontal)  // not a Go boolean: false, as imgproxy
        #expect(status("fl:1:1:1") == 404)
    }

    @Test func extendAspectRatioPlacesTheImageByGravity() throws {
        // 200x100 fit into 300x600 without enlarging: 200x100 on a 200x400 canvas.
        #expect(
            try geometry("rs:fit:300:600/exar:1").aspectRatioCanvas
                == .init(size: .init(width: 200, height: 400), x: 0, y: 150))
        #expect(try geometry("rs:fit:300:600/exar:1:no").aspectRatioCanvas?.y == 0)
        #expect(try geometry("rs:fit:300:600/exar:1:so:0:5").aspectRatioCanvas?.y == 295)
        // Wider than tall: the canvas grows in width.
        #expect(try size("rs:fit:600:100/exar:1") == (600, 100))
        #expect(try size("rs:fit:100:100/exar:1") == (100, 100))
        // Nothing to extend: the same ratio, a side not given, or off.
        #expect(try geometry("rs:fit:400:200/exar:1").aspectRatioCanvas == nil)
        #expect(try geometry("w:300/exar:1").aspectRatioCanvas == nil)
        #expect(try geometry("rs:fit:300:600/exar:0").aspectRatioCanvas == nil)
        // With extend the canvas already has the requested size.
        #expect(try size("rs:fit:300:600/ex:1/exar:1") == (300, 600))
    }

    @Test func paddingIsScaledByDprToEvenAndAddedAround() throws {
        #expect(try size("rs:fit:100:100/pd:10") == (120, 70))
        let padded = try geometry("rs:fit:100:100/pd:1:2:3:4")
        #expect(padded.paddingCanvas == .init(size: .init(width: 106, height: 54), x: 4, y: 1))
        // dpr 1.5: 3 × 1.5 = 4.5 → 4 and 5 × 1.5 = 7.5 → 8 (half to even); the image is 150x75.
        let scaled = try geometry("rs:fit:100:100/dpr:1.5/pd:3:5")
        #expect(scaled.paddingCanvas == .init(size: .init(width: 166, height: 83), x: 8, y: 4))
        // Padding after extend and exar.
        #expect(try size("rs:fit:300:600/exar:1/pd:1") == (202, 402))
        #expect(try size("rs:fit:300:300/ex:1/pd:0:5") == (310, 300))
    }

    @Test func hugePaddingIsBoundedAndCountedByTheLimit() throws {
        let largest = OptionArguments.maxInteger
        // The result-dimension limit scales the padding down with the image, as imgproxy's limitScale does: the image
        // to 1x1, each side to 4096 (rounding lets the result pass the limit by a pixel there too).
        #expect(try size("pd:\(largest)", limit: 8192) == (8193, 8193))
        // Without a limit the size is huge but computed without overflow (the processor refuses it as too large).
        let unlimited = try size("dpr:1000000000/el:1/pd:\(largest)")
        #expect(unlimited.0 > 1 << 40 && unlimited.1 > 1 << 40)
    }

    @Test func theCanonicalURLWritesTheNewOptionsInTableOrder() throws {
        let builder = ImageURLBuilder(signer: nil, base: "http://img.test/")
        let url = try builder.url(options: "fl:1/pd:5:7/exar:1:no/rot:90/g:so/ex:1", source: "s")
        #expect(
            url == "http://img.test/insecure/extend:1:ce/extend_aspect_ratio:1:no/gravity:so/padding:5:7:5:7/"
                + "rotate:90/flip:1:0/cw")
        #expect(
            try builder.url(options: "extend_ar:1:no/padding:5:7:5/flip:1:f", source: "s")
                == url
                .replacingOccurrences(of: "extend:1:ce/", with: "").replacingOccurrences(of: "gravity:so/", with: "")
                .replacingOccurrences(of: "rotate:90/", with: ""))
        for path in ["exar:0:we:3", "pd:0:0:0:1", "fl:0:1", "exar:1/pd:2/fl:1:1"] {
            let first = try options(path)
            let canonical = first.canonicalPath(source: "http://example.com/a.jpg")
            let second = try ImageURLParser(signer: nil).parse("/insecure" + canonical, now: 0).options
            #expect(second == first, "\(path) → \(canonical)")
            #expect(second.cacheIdentity == first.cacheIdentity)
        }
        #expect(try options("pd:1").cacheIdentity != options("pd:2").cacheIdentity)
        #expect(try options("fl:1").cacheIdentity != options("fl:0:1").cacheIdentity)
        #expect(try options("exar:1").cacheIdentity != ProcessingOptions().cacheIdentity)
    }
}
