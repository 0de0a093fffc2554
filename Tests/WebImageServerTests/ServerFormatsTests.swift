import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebImage
import WebImageServer
import WebImageTesting

/// JPEG XL and HEIC through the server: as sources, as result formats, by `Accept` (`autoJXL`, `enforcesJXL`), and
/// PNG gamma (ignored unless `appliesPNGGamma`, as imgproxy).
@Suite("Server: JPEG XL, HEIC and PNG gamma")
struct ServerFormatsTests {
    static let accept: HTTPFields = [.accept: "image/jxl,image/avif,image/webp,*/*"]

    /// Serves the JPEG XL fixtures and a grey PNG whose `gAMA` says linear light.
    static func register(on origin: TestImageServer) throws {
        for name in ["jxl_lossy", "jxl_alpha", "jxl_anim"] {
            origin.register(
                try Fixtures.data("formats/images/\(name).jxl"), at: "/\(name).jxl", contentType: "image/jxl")
        }
        origin.register(try linearPNG(), at: "/linear.png")
    }

    @Test func jxlSourcesDecodeAndKeepImgproxysDefaultFormats() async throws {
        try await ServerHarness.run { harness in
            try Self.register(on: harness.origin)
            let opaque = try await harness.get(harness.url("w:64", "/jxl_lossy.jxl"))
            #expect(opaque.status == .ok && opaque.headers[.contentType] == "image/jpeg")
            #expect(try ServerHarness.image(opaque).size == PixelSize(width: 64, height: 48))
            let alpha = try await harness.get(harness.url("w:64", "/jxl_alpha.jxl"))
            #expect(alpha.headers[.contentType] == "image/png")
            // An animated JPEG XL stays animated when the result animates.
            let gif = try await harness.get(harness.url("w:32", "/jxl_anim.jxl", ext: "gif"))
            #expect(try ServerHarness.image(gif).frames.count == 4)
        }
    }

    @Test func jxlAndHEICAreResultFormats() async throws {
        try await ServerHarness.run { harness in
            let jxl = try await harness.get(harness.url("w:50/f:jxl", "/geometry.png"))
            #expect(jxl.status == .ok && jxl.headers[.contentType] == "image/jxl")
            let image = try ServerHarness.image(jxl)
            #expect(image.format == .jxl && image.size == PixelSize(width: 50, height: 25))
            #expect(image.pixels[5, 5].red > 200 && image.pixels[45, 5].blue > 200)
            let named = try await harness.get(harness.url("w:50", "/alpha.png", ext: "jxl"))
            #expect(try ServerHarness.image(named).isOpaque == false)
            #expect(named.headers[.contentDisposition]?.contains(".jxl\"") == true)
            let heic = try await harness.get(harness.url("w:50", "/geometry.png", ext: "heic"))
            if ImageCoders.default.canEncode(.heic) {
                #expect(heic.status == .ok && heic.headers[.contentType] == "image/heic")
                #expect(try ServerHarness.image(heic).size == PixelSize(width: 50, height: 25))
            } else {
                #expect(heic.status.code == 422)
            }
        }
    }

    @Test func acceptChoosesJXLFirstOnlyWhenAsked() async throws {
        try await ServerHarness.run(configure: { $0.autoWebP = true }) { harness in
            let webp = try await harness.get(harness.url("w:50", "/geometry.png"), headers: Self.accept)
            #expect(webp.headers[.contentType] == "image/webp")
        }
        try await ServerHarness.run(configure: {
            $0.autoJXL = true; $0.autoAVIF = true
        }) { harness in
            let jxl = try await harness.get(harness.url("w:50", "/geometry.png"), headers: Self.accept)
            #expect(jxl.headers[.contentType] == "image/jxl")
            #expect(jxl.headers[.vary] == "Accept")
            let avif = try await harness.get(
                harness.url("w:50", "/geometry.png"), headers: [.accept: "image/jxl;q=0,image/avif"])
            #expect(avif.headers[.contentType] == "image/avif")
            // auto only fills in a missing format: the URL's wins.
            let png = try await harness.get(harness.url("w:50", "/geometry.png", ext: "png"), headers: Self.accept)
            #expect(png.headers[.contentType] == "image/png")
        }
    }

    @Test func enforcesJXLOverridesTheURLsFormat() async throws {
        try await ServerHarness.run(configure: {
            $0.enforcesJXL = true; $0.autoWebP = false
        }) { harness in
            let url = harness.url("w:50", "/geometry.png", ext: "png")
            let jxl = try await harness.get(url, headers: Self.accept)
            #expect(jxl.headers[.contentType] == "image/jxl")
            #expect(jxl.headers[.vary] == "Accept")
            let png = try await harness.get(url, headers: [.accept: "image/webp,*/*"])
            #expect(png.headers[.contentType] == "image/png")
            let jxlAgain = try await harness.get(harness.url("w:50", "/geometry.png"), headers: Self.accept)
            #expect(jxlAgain.headers[.contentType] == "image/jxl")
        }
    }

    /// A PNG of grey 128 whose `gAMA` says linear light: 128 as imgproxy reads it, 188 as a browser shows it.
    @Test func pngGammaIsIgnoredUnlessAsked() async throws {
        for applies in [false, true] {
            try await ServerHarness.run(configure: { $0.appliesPNGGamma = applies }) { harness in
                try Self.register(on: harness.origin)
                let response = try await harness.get(harness.url("w:4", "/linear.png"))
                let red = Int(try ServerHarness.image(response).pixels[1, 1].red)
                #expect(abs(red - (applies ? 188 : 128)) <= 2, "applies \(applies): \(red)")
            }
        }
    }

    /// An 8x8 grey 128 PNG with `gAMA` 1.0 after `IHDR`.
    static func linearPNG() throws -> Data {
        let grey = Image(pixels: PixelBuffer(width: 8, height: 8, filledWith: RGBA(red: 128, green: 128, blue: 128)))
        var png = try ImageCoders.default.encode(grey, as: .png, options: .default)
        let body = Array("gAMA".utf8) + [0, 1, 0x86, 0xA0]
        let crc = Self.crc32(body)
        let chunk = [0, 0, 0, 4] + body + [24, 16, 8, 0].map { UInt8(crc >> $0 & 0xFF) }
        png.insert(contentsOf: chunk, at: 33)
        return png
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
