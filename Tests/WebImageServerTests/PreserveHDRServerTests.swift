import Foundation
import HummingbirdTesting
import Testing
import WebImage
import WebImageServer
import WebImageTesting

/// `preserve_hdr` through a live server: imgproxy's `processing/colorspace_test.go` (TestColorspace, TestDownscaleHDR,
/// TestWatermarkColorspace, TestPreserveHDROptionOverride) with 16-bit PNG and TIFF sources made by the library's
/// encoders, `rs:fill:100:100/enlarge:1` to PNG, TIFF or JPEG, the result's bit depth read from its header.
@Suite("Server: preserve_hdr and 16-bit results")
struct PreserveHDRServerTests {
    /// A 60×40 16-bit gradient whose low bytes carry information; grey when `grey`.
    static func gradient(grey: Bool) -> PixelBuffer16 {
        PixelBuffer16(width: 60, height: 40) { output in
            for y in 0..<40 {
                for x in 0..<60 {
                    let index = (y * 60 + x) * 4
                    let base = UInt16(x * 1000 + y * 37)
                    (output[index], output[index + 3]) = (base, .max)
                    output[index + 1] = grey ? base : 65535 - base
                    output[index + 2] = grey ? base : UInt16(y * 1500 + 7)
                }
            }
        }
    }

    static func encoded(_ pixels: PixelBuffer16, as format: ImageFormat) throws -> Data {
        try ImageCoders.default.encode(Image(frames: [ImageFrame(deepPixels: pixels)]), as: format, options: .default)
    }

    /// A 20×20 8-bit picture: red when not `grey`.
    static func eightBit(grey: Bool) throws -> Data {
        let color = grey ? RGBA(red: 90, green: 90, blue: 90) : RGBA(red: 200, green: 30, blue: 40)
        return try ImageCoders.default.encode(
            Image(pixels: PixelBuffer(width: 20, height: 20, filledWith: color)), as: .png, options: .default)
    }

    /// Registers the sources on the origin: `/rgb16.png`, `/grey16.png`, `/rgb16.tif`, `/grey16.tif`, `/rgb8.png`,
    /// `/grey8.png`.
    static func register(on origin: TestImageServer) throws {
        for grey in [false, true] {
            let name = grey ? "grey" : "rgb"
            origin.register(try encoded(gradient(grey: grey), as: .png), at: "/\(name)16.png")
            origin.register(
                try encoded(gradient(grey: grey), as: .tiff), at: "/\(name)16.tif", contentType: "image/tiff")
            origin.register(try eightBit(grey: grey), at: "/\(name)8.png")
        }
    }

    /// The bit depth and colour type of a PNG result's `IHDR`.
    static func pngHeader(_ response: TestResponse) -> (depth: UInt8, colorType: UInt8) {
        let bytes = [UInt8](Data(response.body.readableBytesView).prefix(26))
        guard bytes.count == 26, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return (0, 0) }
        return (bytes[24], bytes[25])
    }

    static let fill = "rs:fill:100:100/enlarge:1"

    static func serve(
        preserving: Bool, watermark: Data? = nil, linear: Bool = false,
        _ body: @Sendable @escaping (ServerHarness) async throws -> Void
    ) async throws {
        try await ServerHarness.run(configureWithOrigin: { configuration, origin in
            try? register(on: origin)
            configuration.optionDefaults.preserveHDR = preserving
            configuration.usesLinearColorspace = linear
            if let watermark { configuration.watermark = WatermarkConfiguration(source: .data(watermark)) }
        }) { harness in try await body(harness) }
    }

    @Test func sixteenBitSourcesStaySixteenBitInPNG() async throws {
        try await Self.serve(preserving: true) { harness in
            // imgproxy's expectations: RGB16, Grey16, and sRGB / B-W for 8-bit sources.
            let cases: [(String, UInt8, UInt8)] = [
                ("/rgb16.png", 16, 2), ("/grey16.png", 16, 0), ("/rgb16.tif", 16, 2), ("/grey16.tif", 16, 0),
                ("/rgb8.png", 8, 2),
            ]
            for (path, depth, colorType) in cases {
                let response = try await harness.get(harness.url("\(Self.fill)/f:png", path))
                #expect(response.status.code == 200, "\(path)")
                #expect(Self.pngHeader(response) == (depth, colorType), "\(path)")
                let image = try ServerHarness.image(response)
                #expect(image.size == PixelSize(width: 100, height: 100), "\(path)")
            }
        }
    }

    @Test func aJPEGResultHasEightBitsAndPreserveHDROffKeepsEightBits() async throws {
        try await Self.serve(preserving: true) { harness in
            let jpeg = try await harness.get(harness.url("\(Self.fill)/f:jpg", "/rgb16.png"))
            #expect(jpeg.headers[.contentType] == "image/jpeg")
            #expect(try ServerHarness.image(jpeg).size == PixelSize(width: 100, height: 100))
        }
        try await Self.serve(preserving: false) { harness in
            for path in ["/rgb16.png", "/grey16.png", "/rgb16.tif", "/grey16.tif"] {
                let response = try await harness.get(harness.url("\(Self.fill)/f:png", path))
                #expect(Self.pngHeader(response).depth == 8, "\(path)")
            }
        }
    }

    @Test func theURLOptionOverridesTheSettingBothWays() async throws {
        try await Self.serve(preserving: false) { harness in
            let on = try await harness.get(harness.url("\(Self.fill)/f:png/preserve_hdr:true", "/rgb16.png"))
            #expect(Self.pngHeader(on) == (16, 2))
        }
        try await Self.serve(preserving: true) { harness in
            let off = try await harness.get(harness.url("\(Self.fill)/f:png/ph:false", "/rgb16.png"))
            #expect(Self.pngHeader(off) == (8, 2))
        }
    }

    @Test func aTIFFResultHasSixteenBitSamples() async throws {
        try await Self.serve(preserving: true) { harness in
            for (path, grey) in [("/rgb16.png", false), ("/grey16.tif", true)] {
                let response = try await harness.get(harness.url("\(Self.fill)/f:tiff", path))
                #expect(response.headers[.contentType] == "image/tiff")
                var options = DecodingOptions()
                options.keepsHighBitDepth = true
                let image = try ImageCoders.default.decode(Data(response.body.readableBytesView), options: options)
                let deep = try #require(image.frames[0].deepPixels, "\(path): not 16-bit")
                #expect(deep.size == PixelSize(width: 100, height: 100))
                #expect(deep.isGrey == grey)
                #expect(deep.samples.contains { $0 % 257 != 0 }, "\(path): only 8-bit values")
            }
        }
    }

    @Test func avifAndJPEGXLResultsKeepMoreThanEightBits() async throws {
        try await Self.serve(preserving: true) { harness in
            let avif = try await harness.get(harness.url("\(Self.fill)/f:avif", "/rgb16.png"))
            #expect(avif.headers[.contentType] == "image/avif")
            #expect(Self.pixiDepth(Data(avif.body.readableBytesView)) == 12)
            let off = try await harness.get(harness.url("\(Self.fill)/f:avif/ph:0", "/rgb16.png"))
            #expect(Self.pixiDepth(Data(off.body.readableBytesView)) == 8)
            // A 12-bit AVIF source gives a 16-bit PNG.
            harness.origin.register(Data(avif.body.readableBytesView), at: "/rgb12.avif", contentType: "image/avif")
            let fromAVIF = try await harness.get(harness.url("rs:fit:50:50/f:png", "/rgb12.avif"))
            #expect(Self.pngHeader(fromAVIF) == (16, 2))
            let jxl = try await harness.get(harness.url("\(Self.fill)/f:jxl", "/rgb16.tif"))
            #expect(jxl.status.code == 200 && jxl.headers[.contentType] == "image/jxl")
        }
    }

    /// The bits of the first channel in an AVIF's `pixi` property, or 0.
    static func pixiDepth(_ avif: Data) -> UInt8 {
        let bytes = [UInt8](avif)
        guard let at = (0..<max(bytes.count - 10, 0)).first(where: { bytes[$0..<($0 + 4)].elementsEqual("pixi".utf8) })
        else { return 0 }
        return bytes[at + 9]
    }

    @Test func watermarksFollowTheSourceBitDepth() async throws {
        // A grey 16-bit source under an 8-bit red watermark: RGB16.
        try await Self.serve(preserving: true, watermark: try Self.eightBit(grey: false)) { harness in
            let marked = try await harness.get(harness.url("\(Self.fill)/f:png/wm:0.5", "/grey16.png"))
            #expect(Self.pngHeader(marked) == (16, 2))
            let greyMark = try await harness.get(harness.url("\(Self.fill)/f:png/wm:0.5", "/rgb8.png"))
            #expect(Self.pngHeader(greyMark).depth == 8)
        }
        // An 8-bit source under a 16-bit watermark: 8 bits; a grey 16-bit one under an 8-bit grey watermark: Grey16.
        try await Self.serve(preserving: true, watermark: try Self.encoded(Self.gradient(grey: false), as: .png)) {
            harness in
            let marked = try await harness.get(harness.url("\(Self.fill)/f:png/wm:0.5", "/rgb8.png"))
            #expect(Self.pngHeader(marked) == (8, 2))
        }
        try await Self.serve(preserving: true, watermark: try Self.eightBit(grey: true)) { harness in
            let marked = try await harness.get(harness.url("\(Self.fill)/f:png/wm:0.5", "/grey16.png"))
            #expect(Self.pngHeader(marked) == (16, 0))
        }
    }

    @Test func geometryStepsKeepSixteenBits() async throws {
        try await Self.serve(preserving: true) { harness in
            let options = [
                "rot:90/fl:1", "c:30:20/pd:5", "ex:1/rs:fit:100:100/enlarge:1/bg:336699", "t:10", "rs:fit:80:10/exar:1",
                "rs:fit:30:30",
            ]
            for option in options {
                let response = try await harness.get(harness.url("\(option)/f:png", "/rgb16.png"))
                #expect(response.status.code == 200, "\(option)")
                #expect(Self.pngHeader(response).depth == 16, "\(option)")
            }
            // Filters have no 16-bit path: 8 bits.
            let blurred = try await harness.get(harness.url("bl:2/f:png", "/rgb16.png"))
            #expect(Self.pngHeader(blurred).depth == 8)
        }
    }

    @Test func heifFloatTIFFAndGreyProfileSourcesStaySixteenBit() async throws {
        // imgproxy's 32-bpp-linear case (also with linear light), libvips' 16-bit HEIF loads (also of a thumbnail,
        // with enforce_thumbnail) and a grey profile converted at 16 bits: RGB16 and Grey16.
        let sources: [(String, String, UInt8)] = [
            ("heic_10bit.heic", "image/heic", 2), ("tiff_float_rgb.tif", "image/tiff", 2),
            ("png_grey16_linear.png", "image/png", 0), ("tiff_grey16_linear.tif", "image/tiff", 0),
            ("heic_10bit_thumb.heic", "image/heic", 2), ("avif_10bit_thumb.avif", "image/avif", 2),
        ]
        for linear in [false, true] {
            try await Self.serve(preserving: true, linear: linear) { harness in
                for (name, type, colorType) in sources {
                    let data = try Fixtures.data("formats/images/\(name)")
                    harness.origin.register(data, at: "/\(name)", contentType: type)
                    let options = name.contains("thumb") ? "eth:1/rs:fit:20:20" : Self.fill
                    let response = try await harness.get(harness.url("\(options)/f:png", "/\(name)"))
                    #expect(Self.pngHeader(response) == (16, colorType), "\(name), linear \(linear)")
                    let jpeg = try await harness.get(harness.url("\(options)/f:jpg", "/\(name)"))
                    #expect(jpeg.status.code == 200, "\(name), linear \(linear)")
                }
            }
        }
    }
}
