import Foundation
import Testing
import WebImage

/// Crop, flip, rotate, round corners, tint, blur, grayscale and pipelines.
@Suite struct TransformerTests {
    /// A 4x2 image whose pixel (x, y) has red = 10 * (y * 4 + x).
    private let numbered = PixelBuffer(width: 4, height: 2, bytes: (0..<8).flatMap { [UInt8($0 * 10), 0, 0, 255] })

    private func reds(_ pixels: PixelBuffer) -> [UInt8] {
        stride(from: 0, to: pixels.bytes.count, by: 4).map { pixels.bytes[$0] }
    }

    private func isInvalidArgument(_ error: any Error) -> Bool { (error as? WebImageError)?.code == .invalidArgument }

    @Test func cropKeepsARectangle() throws {
        let cropped = try Crop(to: PixelRect(x: 1, y: 0, width: 2, height: 2)).transform(numbered)
        #expect(reds(cropped) == [10, 20, 50, 60])
    }

    @Test func cropByGravity() throws {
        #expect(
            reds(try Crop(size: PixelSize(width: 2, height: 1), gravity: .bottomRight).transform(numbered)) == [60, 70])
        #expect(reds(try Crop(size: PixelSize(width: 2, height: 1), gravity: .topLeft).transform(numbered)) == [0, 10])
        #expect(reds(try Crop(size: PixelSize(width: 2, height: 2)).transform(numbered)) == [10, 20, 50, 60])
    }

    @Test(arguments: [
        PixelRect(x: 3, y: 0, width: 2, height: 1), PixelRect(x: -1, y: 0, width: 1, height: 1),
        PixelRect(x: 0, y: 0, width: 0, height: 1),
    ])
    func cropOutsideTheImageIsAnError(rect: PixelRect) {
        #expect { try Crop(to: rect).transform(numbered) } throws: { isInvalidArgument($0) }
    }

    @Test func flips() throws {
        #expect(reds(try Flip().transform(numbered)) == [30, 20, 10, 0, 70, 60, 50, 40])
        #expect(
            reds(try Flip(horizontal: false, vertical: true).transform(numbered)) == [40, 50, 60, 70, 0, 10, 20, 30])
    }

    @Test func quarterTurnsMovePixelsExactly() throws {
        let right = try Rotate(degrees: 90).transform(numbered)
        #expect(right.size == PixelSize(width: 2, height: 4))
        #expect(reds(right) == [40, 0, 50, 10, 60, 20, 70, 30])
        #expect(try Rotate(degrees: -270).transform(numbered) == right)
        #expect(reds(try Rotate(degrees: 180).transform(numbered)) == [70, 60, 50, 40, 30, 20, 10, 0])
        #expect(try Rotate(degrees: 360).transform(numbered) == numbered)
    }

    @Test func arbitraryRotationEnlargesTheCanvasAndFillsTheCorners() throws {
        let square = PixelBuffer(width: 40, height: 40, filledWith: .white)
        let rotated = try Rotate(degrees: 45, background: RGBA(red: 255, green: 0, blue: 0)).transform(square)
        #expect(rotated.width == 57 && rotated.height == 57)
        #expect(rotated[0, 0] == RGBA(red: 255, green: 0, blue: 0))
        #expect(rotated[28, 28] == .white)
        #expect(try Rotate(degrees: 30).transform(square)[0, 0].alpha == 0)
        #expect { try Rotate(degrees: .nan).transform(square) } throws: { isInvalidArgument($0) }
    }

    @Test func roundCornersAreTransparentAndAntiAliased() throws {
        let rounded = try RoundCorners(radius: 10).transform(PixelBuffer(width: 40, height: 30, filledWith: .white))
        #expect(rounded[0, 0].alpha == 0)
        #expect(rounded[39, 29].alpha == 0)
        #expect(rounded[20, 15].alpha == 255)
        #expect(rounded[20, 0].alpha == 255)
        let edge = (0..<10).map { rounded[$0, 3].alpha }
        #expect(edge.contains { $0 > 0 && $0 < 255 }, "no anti-aliased pixel on the arc: \(edge)")
    }

    @Test func roundCornersDrawABorder() throws {
        let red = RGBA(red: 255, green: 0, blue: 0)
        let rounded = try RoundCorners(radius: 8, borderWidth: 3, borderColor: red)
            .transform(PixelBuffer(width: 40, height: 30, filledWith: .white))
        #expect(rounded[20, 0] == red)
        #expect(rounded[20, 1] == red)
        #expect(rounded[20, 15] == .white)
        #expect { try RoundCorners(radius: -1).transform(numbered) } throws: { isInvalidArgument($0) }
    }

    @Test func tintBlendsByTheColoursAlpha() throws {
        let grey = PixelBuffer(width: 2, height: 2, filledWith: RGBA(red: 100, green: 100, blue: 100, alpha: 77))
        #expect(
            try Tint(RGBA(red: 255, green: 0, blue: 0)).transform(grey)[0, 0]
                == RGBA(red: 255, green: 0, blue: 0, alpha: 77))
        let half = try Tint(RGBA(red: 200, green: 0, blue: 0, alpha: 128)).transform(grey)[1, 1]
        #expect(half == RGBA(red: 150, green: 50, blue: 50, alpha: 77))
    }

    @Test func blurSpreadsAnImpulseAndKeepsSolidColour() throws {
        let solid = PixelBuffer(width: 30, height: 20, filledWith: RGBA(red: 9, green: 99, blue: 199))
        #expect(try Blur(radius: 2).transform(solid) == solid)
        let dot = PixelBuffer(width: 21, height: 21) { output in
            output.update(repeating: 0)
            for index in stride(from: 3, to: output.count, by: 4) { output[index] = 255 }
            output[(10 * 21 + 10) * 4] = 255
        }
        let blurred = try Blur(radius: 1.5).transform(dot)
        #expect(blurred[10, 10].red < 255 && blurred[10, 10].red > 0)
        #expect(blurred[12, 10].red > 0 && blurred[12, 10].red < blurred[11, 10].red)
        #expect(blurred[0, 0].red == 0)
        #expect(try Blur(radius: 0).transform(dot) == dot)
        #expect { try Blur(radius: -2).transform(dot) } throws: { isInvalidArgument($0) }
    }

    @Test func grayscaleUsesLumaAndKeepsAlpha() throws {
        let colour = PixelBuffer(width: 1, height: 1, filledWith: RGBA(red: 255, green: 0, blue: 0, alpha: 33))
        #expect(try Grayscale().transform(colour)[0, 0] == RGBA(red: 76, green: 76, blue: 76, alpha: 33))
    }

    @Test func pipelineAppliesInOrderAndJoinsKeys() throws {
        let pipeline = TransformerPipeline([Crop(size: PixelSize(width: 2, height: 2), gravity: .topLeft), Flip()])
        #expect(pipeline.key == "crop(2x2,topleft)|flip(h)")
        #expect(reds(try pipeline.transform(Image(pixels: numbered)).pixels) == [10, 0, 50, 40])
    }

    @Test func keysAreStableAndDistinct() {
        let transformers: [any ImageTransforming] = [
            Resize(to: PixelSize(width: 720, height: 588)),
            Resize(to: PixelSize(width: 720, height: 588), mode: .cover),
            Resize(to: PixelSize(width: 720, height: 588), mode: .cover, gravity: .top),
            Resize(to: PixelSize(width: 720, height: 588), filter: .bilinear), Resize(scale: 0.5),
            Resize(to: PixelSize(width: 720, height: 588), allowsUpscaling: true),
            Crop(to: PixelRect(x: 0, y: 0, width: 5, height: 5)), Crop(size: PixelSize(width: 5, height: 5)),
            RoundCorners(radius: 4), RoundCorners(radius: 4, borderWidth: 1), Rotate(degrees: 90), Rotate(degrees: 45),
            Flip(), Flip(horizontal: false, vertical: true), Tint(.white), Tint(.black), Blur(radius: 2),
            Blur(radius: 2.5),
            Grayscale(),
        ]
        let keys = transformers.map(\.key)
        #expect(Set(keys).count == keys.count, "\(keys)")
        #expect(Resize(to: PixelSize(width: 720, height: 588), mode: .cover).key == "resize(720x588,cover,lanczos3)")
        // Before the CSS names, `fill` meant cover and `fit` contain: a key written then must not match another mode.
        #expect(Resize(to: PixelSize(width: 720, height: 588), mode: .fill).key == "resize(720x588,stretch,lanczos3)")
        #expect(
            ResizeMode.all.allSatisfy { mode in
                let key = Resize(to: PixelSize(width: 9, height: 9), mode: mode).key
                return !key.contains(",fill,") && !key.contains(",fit,")
            })
        #expect(Blur(radius: 2.5).key == "blur(2.500)")
    }

    @Test func animationsKeepFramesAndDurations() throws {
        let animation = try ImageCoders.default.decode(try corpusImage("gen_anim.gif"), options: .default)
        let pipeline = TransformerPipeline([
            Resize(to: PixelSize(width: 60, height: 60)), RoundCorners(radius: 5), Rotate(degrees: 90),
        ])
        let result = try pipeline.transform(animation)
        #expect(result.frames.count == animation.frames.count)
        #expect(result.frames.map(\.duration) == animation.frames.map(\.duration))
        #expect(result.loopCount == animation.loopCount)
        #expect(result.size == PixelSize(width: 45, height: 60))
    }
}
