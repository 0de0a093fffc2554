import Foundation
import HummingbirdTesting
import Testing
import WebImage
import WebImageServer
import WebImageTesting

/// The pixels of `padding`, `extend_aspect_ratio` and `flip`, and the format they choose.
@Suite("Server: padding, extend_aspect_ratio and flip pixels")
struct ExtendPaddingFlipPixelTests {
    @Test func paddingIsTransparentInPNGAndTheBackgroundInJPEG() async throws {
        try await ServerHarness.run { harness in
            // geometry.png: 200x100, left half red, right half blue.
            let png = try await harness.get(harness.url("rs:fit:100:100/pd:10:20", "/geometry.png"))
            #expect(png.headers[.contentType] == "image/png")
            let clear = try ServerHarness.image(png)
            #expect((clear.width, clear.height) == (140, 70))
            #expect(clear.pixels[5, 5].alpha == 0 && clear.pixels[135, 35].alpha == 0)
            #expect(clear.pixels[30, 35] == RGBA(red: 255, green: 0, blue: 0))
            #expect(clear.pixels[110, 35].blue == 255 && clear.pixels[110, 35].alpha == 255)
            let jpeg = try ServerHarness.image(
                try await harness.get(harness.url("rs:fit:100:100/pd:10:20/bg:00ff00", "/geometry.png", ext: "jpg")))
            #expect((jpeg.width, jpeg.height) == (140, 70))
            for (x, y) in [(5, 5), (135, 65), (70, 3)] {
                let pixel = jpeg.pixels[x, y]
                #expect(pixel.green > 240 && pixel.red < 15 && pixel.blue < 15, "\(x),\(y): \(pixel)")
            }
            #expect(jpeg.pixels[40, 35].red > 240 && jpeg.pixels[40, 35].green < 15)
        }
    }

    @Test func paddingExpectsTransparencyForTheFormatAndTheAspectRatioDoesNot() async throws {
        try await ServerHarness.run { harness in
            // An opaque WebP is not kept (not a preferred format): JPEG, unless transparency is expected.
            let plain = try await harness.get(harness.url("w:50", "/geometry.webp"))
            #expect(plain.headers[.contentType] == "image/jpeg")
            let padded = try await harness.get(harness.url("w:50/pd:2", "/geometry.webp"))
            #expect(padded.headers[.contentType] == "image/png")
            let flattened = try await harness.get(harness.url("w:50/pd:2/bg:fff", "/geometry.webp"))
            #expect(flattened.headers[.contentType] == "image/jpeg")
            let exar = try await harness.get(harness.url("rs:fit:50:100/exar:1", "/geometry.webp"))
            #expect(exar.headers[.contentType] == "image/jpeg")
            let image = try ServerHarness.image(exar)
            #expect((image.width, image.height) == (50, 100))
            // The JPEG flattens the aspect-ratio canvas on white; the image sits in the middle.
            #expect(image.pixels[25, 2].red > 240 && image.pixels[25, 2].blue > 240 && image.pixels[25, 2].green > 240)
            #expect(image.pixels[10, 50].red > 200 && image.pixels[10, 50].green < 40)
        }
    }

    @Test func flipMirrorsAfterTheRotation() async throws {
        try await ServerHarness.run { harness in
            let flipped = try ServerHarness.image(try await harness.get(harness.url("fl:1", "/geometry.png")))
            #expect((flipped.width, flipped.height) == (200, 100))
            #expect(flipped.pixels[10, 50] == RGBA(red: 0, green: 0, blue: 255))
            #expect(flipped.pixels[190, 50] == RGBA(red: 255, green: 0, blue: 0))
            // rot:90 puts the red half on top; the vertical flip after it puts it at the bottom (before the
            // rotation it would change nothing).
            let turned = try ServerHarness.image(try await harness.get(harness.url("rot:90/fl:0:1", "/geometry.png")))
            #expect((turned.width, turned.height) == (100, 200))
            #expect(turned.pixels[50, 10] == RGBA(red: 0, green: 0, blue: 255))
            #expect(turned.pixels[50, 190] == RGBA(red: 255, green: 0, blue: 0))
            // The result crop's gravity applies to the flipped image, as in imgproxy.
            let west = try ServerHarness.image(
                try await harness.get(harness.url("fl:1/rs:fill:50:50/g:we", "/geometry.png")))
            #expect(west.pixels[25, 25] == RGBA(red: 0, green: 0, blue: 255))
        }
    }

    @Test func hugePaddingIsRefusedAsTooLarge() async throws {
        try await ServerHarness.run(configure: { $0.limits.maxResultDimension = 0 }) { harness in
            let response = try await harness.get(harness.url("pd:1073741824", "/geometry.png"))
            #expect(response.status.code == 422)
        }
    }
}
