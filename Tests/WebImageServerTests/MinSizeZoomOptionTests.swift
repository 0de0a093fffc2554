import Testing
import WebImage

@testable import WebImageServer

/// `min-width`/`mw`, `min-height`/`mh` and `zoom`/`z`, as imgproxy's parser and `calcScale`/`calcSizes` take them.
@Suite struct MinSizeZoomOptionTests {
    static func options(_ text: String) throws -> ProcessingOptions {
        try ImageURLParser(signer: nil).parse("/x/\(text)/plain/http://e.example/a.jpg", now: 0).options
    }

    /// The result size of `text` applied to imgproxy's 200×100 test source.
    static func size(_ text: String, limit: Int = 0) throws -> PixelSize {
        GeometryCalculator.geometry(
            source: PixelSize(width: 200, height: 100), options: try options(text), maxResultDimension: limit
        ).resultSize
    }

    @Test func theOptionsTakeImgproxysNamesAndArguments() throws {
        #expect(try Self.options("mw:120").minWidth == 120)
        #expect(try Self.options("min-width:120/min-height:30").minHeight == 30)
        #expect(try Self.options("mh:7").minHeight == 7)
        let both = try Self.options("z:1.5")
        #expect((both.zoomWidth, both.zoomHeight) == (1.5, 1.5), "one factor zooms both axes")
        let each = try Self.options("zoom:2:0.5")
        #expect((each.zoomWidth, each.zoomHeight) == (2, 0.5))
        for bad in ["z:0", "z:-1", "z:nan", "z:1:2:3", "z:x", "mw:-1", "mw:1.5", "mw:1:2"] {
            #expect(throws: ImageServerError.self, "\(bad)") { try Self.options(bad) }
        }
    }

    @Test(arguments: [
        // Worked through imgproxy's calcScale, calcSizes, limitScale and cropToResult by hand (a 200×100 source): the
        // scaled image is cropped to the requested size, so a minimum widens the result only on a side left free.
        ("rs:fit:50:50/mw:100", 0, 50, 50), ("h:50/mw:150", 0, 150, 50), ("w:40/mh:60", 0, 40, 60),
        ("rs:fit:50:50/mw:20", 0, 50, 25), ("h:20/mw:500", 0, 500, 20), ("h:20/mw:500", 300, 300, 12),
        ("w:50/z:2", 0, 100, 50), ("rs:fill:50:50/z:1:2", 0, 50, 100), ("w:150/z:2", 0, 200, 100),
        ("w:150/z:2/el:1", 0, 300, 150),
    ])
    func sizesFollowImgproxysScaleComputation(options: String, limit: Int, width: Int, height: Int) throws {
        let size = try Self.size(options, limit: limit)
        #expect(size == PixelSize(width: width, height: height), "\(options): \(size)")
    }

    @Test func theCanonicalURLWritesThemAndReadsBack() throws {
        let options = try Self.options("z:2:0.5/mh:30/mw:40/w:10")
        let path = options.canonicalPath(source: "http://e.example/a.jpg")
        #expect(path.hasPrefix("/width:10/min-width:40/min-height:30/zoom:2:0.5/"))
        #expect(try ImageURLParser(signer: nil).parse("/insecure" + path, now: 0).options == options)
        #expect(try Self.options("z:3").canonicalPath(source: "s").hasPrefix("/zoom:3/"))
        #expect(options.cacheIdentity != (try Self.options("w:10")).cacheIdentity)
    }
}
