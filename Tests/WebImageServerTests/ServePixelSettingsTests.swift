import Foundation
import Testing
import WebImage
import WebImageTesting

/// `webimage serve`'s pixel settings as a real process: `--disable-shrink-on-load`, `--use-linear-colorspace` and
/// `--preserve-hdr`, from their flags and from imgproxy's variables, which are then no longer named in the start-up
/// warning.
@Suite("Server: webimage serve's pixel settings", .timeLimit(.minutes(1)))
struct ServePixelSettingsTests {
    /// Starts an origin with the 12-megapixel JPEG and a black-and-white PNG, and `webimage serve` in front of it.
    static func serving(
        _ arguments: [String], environment: [String: String] = [:],
        _ body: ((String, String) -> String) async throws -> Void
    ) async throws -> String {
        let origin = TestImageServer()
        try await origin.start()
        let big = try Data(contentsOf: Fixtures.corpus.appendingPathComponent("images/gen_12mp.jpg"))
        origin.register(big, at: "/big.jpg", contentType: "image/jpeg")
        let stripes = PixelBuffer(width: 2, height: 1, bytes: [0, 0, 0, 255, 255, 255, 255, 255])
        origin.register(
            try ImageCoders.default.encode(Image(pixels: stripes), as: .png, options: .init()), at: "/bw.png")
        let deep = try Data(contentsOf: Fixtures.corpus.appendingPathComponent("images/pngsuite_basi2c16.png"))
        origin.register(deep, at: "/deep.png", contentType: "image/png")
        do {
            let errors = try await ServeLifecycleTests.serve(environment: environment, arguments: arguments) { base in
                try await body { options, path in "\(base)/insecure/\(options)/plain/\(origin.url(path).absoluteString)"
                }
            }
            try await origin.shutdown()
            return errors
        } catch {
            try await origin.shutdown()
            throw error
        }
    }

    static func image(_ url: String) async throws -> Image {
        try ImageCoders.default.decode(try await ServeImgproxyEnvironmentTests.get(url).data, options: .default)
    }

    /// imgproxy's 101×101 after a shrink on load, 100×100 from the full-size image.
    @Test(arguments: [
        ([String](), [String: String](), 101), (["--disable-shrink-on-load"], [:], 100),
        ([], ["IMGPROXY_DISABLE_SHRINK_ON_LOAD": "true"], 100), ([], ["IMGPROXY_DISABLE_SHRINK_ON_LOAD": "false"], 101),
    ])
    func shrinkOnLoadFollowsItsSetting(arguments: [String], environment: [String: String], side: Int) async throws {
        let errors = try await Self.serving(arguments, environment: environment) { url in
            let image = try await Self.image(url("c:1004:1004:nowe:100:50/z:0.1", "/big.jpg"))
            #expect((image.width, image.height) == (side, side))
        }
        #expect(!errors.contains("IMGPROXY_DISABLE_SHRINK_ON_LOAD"), "\(errors)")
    }

    /// Black and white halved: 128 averaged as encoded values, 188 (half the light) in linear light.
    @Test(arguments: [
        ([String](), [String: String](), 128), (["--use-linear-colorspace"], [:], 188),
        ([], ["IMGPROXY_USE_LINEAR_COLORSPACE": "true"], 188),
    ])
    func linearLightFollowsItsSetting(arguments: [String], environment: [String: String], grey: Int) async throws {
        let errors = try await Self.serving(arguments, environment: environment) { url in
            let pixel = try await Self.image(url("w:1", "/bw.png")).pixels[0, 0]
            #expect(abs(Int(pixel.red) - grey) <= 1, "\(pixel)")
        }
        #expect(!errors.contains("IMGPROXY_USE_LINEAR_COLORSPACE"), "\(errors)")
    }

    /// `IMGPROXY_PRESERVE_HDR`, `--preserve-hdr` and `ph` are read (the variable leaves the warning): a 16-bit PNG
    /// answers a 16-bit PNG with preserve_hdr on, from the setting or the URL, and an 8-bit one with it off.
    @Test(arguments: [
        ([String](), [String: String](), "w:16", UInt8(8)), ([], ["IMGPROXY_PRESERVE_HDR": "true"], "w:16", 16),
        (["--preserve-hdr"], [:], "w:16/ph:0", 8), (["--preserve-hdr"], [:], "w:16", 16),
        ([], [:], "w:16/preserve_hdr:1", 16),
    ])
    func preserveHDRIsReadAndKeepsSixteenBits(
        arguments: [String], environment: [String: String], options: String, depth: UInt8
    ) async throws {
        let errors = try await Self.serving(arguments, environment: environment) { url in
            let response = try await ServeImgproxyEnvironmentTests.get(url(options, "/deep.png"))
            #expect(response.status == 200)
            let bytes = [UInt8](response.data)
            // The IHDR chunk's bit depth, after the signature, the chunk's length and type, width and height.
            #expect(bytes.count > 24 && bytes[24] == depth, "a \(depth)-bit PNG")
        }
        #expect(!errors.contains("IMGPROXY_PRESERVE_HDR"), "\(errors)")
    }
}
