import Foundation
import HummingbirdTesting
import Testing
import WebImage
import WebImageServer
import WebImageTesting

/// `trim` and `pixelate` through a live server and origin.
@Suite("Server: trim and pixelate end to end")
struct TrimPixelateServerTests {
    /// 400×300 white with a red 240×80 picture at (80, 112), on 16-pixel block edges so the JPEG keeps them sharp.
    static let bordered = PixelBuffer(width: 400, height: 300) { buffer in
        for y in 0..<300 {
            for x in 0..<400 {
                let inside = (80..<320).contains(x) && (112..<192).contains(y)
                let index = (y * 400 + x) * 4
                (buffer[index], buffer[index + 1], buffer[index + 2], buffer[index + 3]) =
                    (255, inside ? 0 : 255, inside ? 0 : 255, 255)
            }
        }
    }

    static func register(on harness: ServerHarness) throws {
        let coders = ImageCoders.default
        harness.origin.register(try coders.encode(Image(pixels: bordered), as: .png, options: .default), at: "/b.png")
        harness.origin.register(
            try coders.encode(Image(pixels: bordered), as: .jpeg, options: EncodingOptions(quality: 95)), at: "/b.jpg",
            contentType: "image/jpeg")
        harness.origin.register(
            try coders.encode(Image(pixels: PixelateOptionTests.gradient(30, 20)), as: .png, options: .default),
            at: "/gradient.png")
    }

    @Test func trimRemovesTheBorderBeforeTheResize() async throws {
        try await ServerHarness.run { harness in
            try Self.register(on: harness)
            let trimmed = try ServerHarness.image(try await harness.get(harness.url("t:10", "/b.png")))
            #expect(
                trimmed.pixels == PixelBuffer(width: 240, height: 80, filledWith: RGBA(red: 255, green: 0, blue: 0)))
            // The geometry comes from the trimmed 240×80, not from the header's 400×300 (no shrink on load, which
            // would give 120×90); the JPEG's upsampled chroma may bleed a pixel past the red's edges.
            let jpeg = try ServerHarness.image(try await harness.get(harness.url("t:10/w:120", "/b.jpg")))
            #expect(jpeg.width == 120 && (40...41).contains(jpeg.height), "\(jpeg.size)")
            #expect(jpeg.pixels[2, 2].red > 230 && jpeg.pixels[2, 2].green < 30)
            let equal = try ServerHarness.image(try await harness.get(harness.url("t:10::1:1", "/b.png")))
            // Cuts of 80 and 80 across, 112 and 108 down: the smaller, 108, on both.
            #expect((equal.width, equal.height) == (240, 84))
            let untouched = try ServerHarness.image(try await harness.get(harness.url("t:10:00ff00", "/b.png")))
            #expect((untouched.width, untouched.height) == (400, 300))
        }
    }

    @Test func pixelateMakesBlocksAfterTheScale() async throws {
        try await ServerHarness.run { harness in
            try Self.register(on: harness)
            let image = try ServerHarness.image(try await harness.get(harness.url("pix:4", "/gradient.png")))
            #expect((image.width, image.height) == (30, 20))
            #expect(PixelateOptionTests.hasUniformBlocks(image.pixels, size: 4))
            let scaled = try ServerHarness.image(try await harness.get(harness.url("w:15/pix:5", "/gradient.png")))
            #expect((scaled.width, scaled.height) == (15, 10))
            #expect(PixelateOptionTests.hasUniformBlocks(scaled.pixels, size: 5))
            let combined = try ServerHarness.image(try await harness.get(harness.url("t:10/pix:16", "/b.png")))
            #expect((combined.width, combined.height) == (240, 80))
        }
    }

    @Test func badArgumentsAre404() async throws {
        try await ServerHarness.run { harness in
            try Self.register(on: harness)
            for options in ["t:-1", "t:nan", "t:Infinity", "t:10:xyz", "pix:-2", "pix:2.5", "pix:1e309", "pix:nan"] {
                #expect(try await harness.get(harness.url(options, "/b.png")).status.code == 404, "\(options)")
            }
        }
    }
}
