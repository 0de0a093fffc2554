import Foundation
import Testing
import WebImage

/// Output sizes of every resize mode, and the pixels a resampler must get exactly right.
@Suite struct ResizeTests {
    private func image(_ width: Int, _ height: Int, _ color: RGBA = .white) -> PixelBuffer {
        PixelBuffer(width: width, height: height, filledWith: color)
    }

    private func size(_ source: (Int, Int), _ resize: Resize) throws -> PixelSize {
        try resize.transform(image(source.0, source.1)).size
    }

    @Test(
        arguments: [
            // source, target, mode, expected
            ((2725, 2225), (720, 588), "contain", (720, 588)),
            ((2725, 2225), (720, 720), "contain", (720, 588)),
            ((2725, 2225), (720, 720), "cover", (720, 720)),
            ((2725, 2225), (720, 588), "fill", (720, 588)),
            ((2725, 2225), (100, 500), "fill", (100, 500)),
            ((1, 1000), (100, 100), "contain", (1, 100)),
            ((1000, 1), (100, 100), "contain", (100, 1)),
            ((1, 1000), (50, 50), "cover", (1, 1)),
            ((1000, 1), (10, 10), "cover", (1, 1)),
            ((1, 1), (64, 64), "contain", (1, 1)),
            ((640, 480), (1, 1), "cover", (1, 1)),
            ((640, 480), (1, 1), "contain", (1, 1)),
            ((300, 200), (600, 600), "contain", (300, 200)),
            ((300, 200), (100, 300), "cover", (67, 200)),
        ] as [((Int, Int), (Int, Int), String, (Int, Int))])
    func outputSizes(source: (Int, Int), target: (Int, Int), mode: String, expected: (Int, Int)) throws {
        let mode = ResizeMode.all.first { $0.description == mode }!
        let resize = Resize(to: PixelSize(width: target.0, height: target.1), mode: mode)
        #expect(try size(source, resize) == PixelSize(width: expected.0, height: expected.1))
    }

    @Test func upscalingOnlyWhenAsked() throws {
        let target = PixelSize(width: 600, height: 600)
        #expect(
            try size((300, 200), Resize(to: target, mode: .contain, allowsUpscaling: true))
                == PixelSize(width: 600, height: 400))
        #expect(try size((300, 200), Resize(to: target, mode: .cover, allowsUpscaling: true)) == target)
        #expect(try size((300, 200), Resize(to: target, mode: .fill)) == PixelSize(width: 300, height: 200))
        #expect(try size((300, 200), Resize(scale: 2)) == PixelSize(width: 300, height: 200))
        #expect(try size((300, 200), Resize(scale: 2, allowsUpscaling: true)) == PixelSize(width: 600, height: 400))
        #expect(try size((300, 200), Resize(scale: 0.5)) == PixelSize(width: 150, height: 100))
    }

    @Test(arguments: [PixelSize(width: 0, height: 10), PixelSize(width: 10, height: -1)])
    func invalidSizesAreErrors(target: PixelSize) {
        #expect { try Resize(to: target).transform(image(10, 10)) } throws: {
            ($0 as? WebImageError)?.code == .invalidArgument
        }
    }

    @Test(arguments: [0, -1, Double.nan, Double.infinity])
    func invalidScalesAreErrors(scale: Double) {
        #expect { try Resize(scale: scale).transform(image(10, 10)) } throws: {
            ($0 as? WebImageError)?.code == .invalidArgument
        }
    }

    @Test(arguments: [ResamplingFilter.lanczos3, .catmullRom, .mitchell, .bilinear, .box])
    func solidColourStaysExactlyThatColour(filter: ResamplingFilter) throws {
        let colour = RGBA(red: 200, green: 17, blue: 90, alpha: 255)
        for target in [
            PixelSize(width: 37, height: 23), PixelSize(width: 300, height: 7), PixelSize(width: 130, height: 110),
        ] {
            let result = Resampler(filter: filter).resample(image(128, 96, colour), to: target)
            #expect(
                result == PixelBuffer(width: target.width, height: target.height, filledWith: colour),
                "\(filter) \(target)")
        }
    }

    @Test func translucentSolidColourKeepsItsColourAndAlpha() {
        let colour = RGBA(red: 10, green: 200, blue: 30, alpha: 128)
        let result = Resampler().resample(image(64, 64, colour), to: PixelSize(width: 20, height: 20))
        #expect(result == PixelBuffer(width: 20, height: 20, filledWith: colour))
    }

    @Test(arguments: [ResamplingFilter.lanczos3, .catmullRom, .bilinear])
    func transparentEdgeGetsNoDarkFringe(filter: ResamplingFilter) {
        // Left half opaque red, right half fully transparent black.
        let source = PixelBuffer(width: 64, height: 8) { output in
            for index in stride(from: 0, to: output.count, by: 4) {
                let opaque = (index / 4) % 64 < 32
                output[index] = opaque ? 255 : 0
                output[index + 1] = 0
                output[index + 2] = 0
                output[index + 3] = opaque ? 255 : 0
            }
        }
        let result = Resampler(filter: filter).resample(source, to: PixelSize(width: 21, height: 3))
        for y in 0..<3 {
            for x in 0..<21 where result[x, y].alpha > 8 {
                #expect(result[x, y].red >= 250, "dark fringe at \(x),\(y): \(result[x, y])")
            }
        }
        #expect(result[10, 1].alpha > 0 && result[10, 1].alpha < 255)
    }

    @Test func boxHalvingAveragesACheckerboard() {
        let source = PixelBuffer(width: 8, height: 8) { output in
            for index in stride(from: 0, to: output.count, by: 4) {
                let (x, y) = ((index / 4) % 8, (index / 4) / 8)
                let value: UInt8 = (x + y) % 2 == 0 ? 200 : 100
                output[index] = value
                output[index + 1] = value
                output[index + 2] = value
                output[index + 3] = 255
            }
        }
        let result = Resampler(filter: .box).resample(source, to: PixelSize(width: 4, height: 4))
        #expect(result == PixelBuffer(width: 4, height: 4, filledWith: RGBA(red: 150, green: 150, blue: 150)))
    }

    @Test func minimumSourceSizeDrivesShrinkOnLoad() throws {
        let original = PixelSize(width: 2725, height: 2225)
        let fill = Resize(to: PixelSize(width: 720, height: 588), mode: .fill).minimumSourceSize(for: original)
        #expect(fill == PixelSize(width: 720, height: 588))
        let fit = try #require(Resize(to: PixelSize(width: 256, height: 256)).minimumSourceSize(for: original))
        #expect(fit.width == 256 && fit.height == 209)
        let cover = try #require(
            Resize(to: PixelSize(width: 300, height: 100), mode: .cover).minimumSourceSize(for: original))
        #expect(cover.width >= 300 && cover.height >= 100 && cover.width <= 302)
    }
}
