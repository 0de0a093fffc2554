import Foundation
import HummingbirdTesting
import Testing
import WebImage
import WebImageServer
import WebImageTesting

/// What the pixels look like: orientation, crops by gravity, smart crop, extend canvas, presets.
@Suite("Server: pixels")
struct ServerPixelTests {
    static let exif = "/fixtures/corpus/images/exif_Landscape_6.jpg"

    @Test func exifOrientationIsAppliedUnlessAutoRotateIsOff() async throws {
        try await ServerHarness.run { harness in
            let upright = try ServerHarness.image(try await harness.get(harness.url("", Self.exif)))
            #expect((upright.width, upright.height) == (600, 450))
            let stored = try ServerHarness.image(try await harness.get(harness.url("ar:0", Self.exif)))
            #expect((stored.width, stored.height) == (450, 600))
            let rotated = try ServerHarness.image(try await harness.get(harness.url("rot:90/w:60", Self.exif)))
            #expect((rotated.width, rotated.height) == (60, 80))
        }
    }

    @Test func shrinkOnLoadKeepsImgproxysSizes() async throws {
        try await ServerHarness.run { harness in
            let big = "/fixtures/corpus/images/gen_12mp.jpg"
            for (options, width, height) in [
                ("w:100", 100, 75), ("rs:fill:120:80/g:sm", 120, 80), ("rs:fit:333:333/rot:90", 250, 333),
                ("rs:fill:50:50/ex:1", 50, 50), ("c:1000:1000/w:10", 10, 10),
            ] {
                let image = try ServerHarness.image(try await harness.get(harness.url(options, big)))
                #expect((image.width, image.height) == (width, height), "\(options)")
            }
        }
    }

    @Test func fillCropsByGravity() async throws {
        try await ServerHarness.run { harness in
            // geometry.png: left half red, right half blue.
            let west = try ServerHarness.image(
                try await harness.get(harness.url("rs:fill:50:50/g:we", "/geometry.png")))
            #expect(west.pixels[25, 25].red > 200 && west.pixels[25, 25].blue < 50)
            let east = try ServerHarness.image(
                try await harness.get(harness.url("rs:fill:50:50/g:ea", "/geometry.png")))
            #expect(east.pixels[25, 25].blue > 200 && east.pixels[25, 25].red < 50)
            let crop = try ServerHarness.image(try await harness.get(harness.url("c:40:40:ea", "/geometry.png")))
            #expect((crop.width, crop.height) == (40, 40))
            #expect(crop.pixels[20, 20].blue > 200)
        }
    }

    @Test func blurSoftensAndSharpenSteepensTheRedBlueEdge() async throws {
        try await ServerHarness.run { harness in
            // geometry.png at its own size (200x100, PNG: lossless): the edge lies between x = 99 and x = 100.
            func edge(_ options: String) async throws -> (RGBA, RGBA) {
                let image = try ServerHarness.image(try await harness.get(harness.url(options, "/geometry.png")))
                return (image.pixels[97, 50], image.pixels[99, 50])
            }
            let (plainNear, plainAt) = try await edge("q:90")
            #expect(plainNear.red == 255 && plainAt.red == 255 && plainAt.blue == 0)
            let (_, blurredAt) = try await edge("bl:3")
            #expect(blurredAt.red < 230 && blurredAt.blue > 25, "blur mixes the colours across the edge: \(blurredAt)")
            let (_, sharpAt) = try await edge("bl:3/sh:3")
            #expect(sharpAt.blue < blurredAt.blue, "sharpen pulls the edge back: \(sharpAt) vs \(blurredAt)")
        }
    }

    @Test func smartGravityKeepsTheDetailedPart() async throws {
        try await ServerHarness.run { harness in
            // A flat grey 300×100 image with a black-and-white checkerboard in its right third.
            let pixels = PixelBuffer(width: 300, height: 100) { buffer in
                for y in 0..<100 {
                    for x in 0..<300 {
                        let index = (y * 300 + x) * 4
                        let value: UInt8 = x >= 200 ? ((x / 4 + y / 4) % 2 == 0 ? 0 : 255) : 128
                        buffer[index] = value
                        buffer[index + 1] = value
                        buffer[index + 2] = value
                        buffer[index + 3] = 255
                    }
                }
            }
            let png = try ImageCoders.default.encode(Image(pixels: pixels), as: .png, options: .default)
            harness.origin.register(png, at: "/detail.png")
            let smart = try ServerHarness.image(
                try await harness.get(harness.url("rs:fill:100:100/g:sm", "/detail.png")))
            let center = try ServerHarness.image(try await harness.get(harness.url("rs:fill:100:100", "/detail.png")))
            func contrast(_ image: Image) -> Int {
                (0..<100).reduce(0) { $0 + abs(Int(image.pixels[$1, 50].red) - 128) }
            }
            #expect(contrast(smart) > 5 * max(1, contrast(center)), "\(contrast(smart)) vs \(contrast(center))")
        }
    }

    @Test func extendFillsTheCanvasWithTheBackground() async throws {
        try await ServerHarness.run { harness in
            let image = try ServerHarness.image(
                try await harness.get(harness.url("rs:fit:200:200/ex:1:no/bg:00ff00", "/geometry.png", ext: "jpg")))
            #expect((image.width, image.height) == (200, 200))
            #expect(image.pixels[50, 10].red > 200, "the image at the top")
            #expect(image.pixels[100, 180].green > 200 && image.pixels[100, 180].red < 60, "green canvas below")
            let transparent = try ServerHarness.image(
                try await harness.get(harness.url("rs:fit:200:200/ex:1", "/geometry.png", ext: "png")))
            #expect(transparent.pixels[100, 5].alpha == 0)
        }
    }

    @Test func presetsIncludingDefaultApplyToEveryRequest() async throws {
        let presets = try Presets(definitions: ["default=f:png", "thumb=rs:fill:20:20/pr:sq", "sq=pr:thumb"])
        try await ServerHarness.run(configure: { $0.presets = presets }) { harness in
            let response = try await harness.get(harness.url("pr:thumb", "/geometry.jpg"))
            #expect(response.headers[.contentType] == "image/png")
            let image = try ServerHarness.image(response)
            #expect((image.width, image.height) == (20, 20))
        }
    }
}
