import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebImageServer
import WebImageTesting

@testable import WebImage

/// imgproxy's `IMGPROXY_PNG_UNLIMITED`, `IMGPROXY_SVG_UNLIMITED` and `IMGPROXY_TIFF_UNLIMITED`: the loader limits
/// libvips' `unlimited` lifts, refused by default and read when lifted, in process and in `webimage serve`.
@Suite("Server: loader limits lifted", .timeLimit(.minutes(2)))
struct UnlimitedLoaderServerTests {
    /// A 4×4 PNG with a 65 MiB `tEXt` chunk: over libspng's chunk limits.
    static func bigPNG() throws -> Data {
        var png = try ImageCoders.default.encode(
            Image(pixels: PixelBuffer(width: 4, height: 4, filledWith: RGBA(red: 10, green: 20, blue: 30))), as: .png,
            options: .default)
        var text = Data()
        PNGChunks.append("tEXt", Array("Comment\0".utf8) + [UInt8](repeating: 0x61, count: 65 << 20), to: &text)
        png.insert(contentsOf: text, at: png.startIndex + 33)
        return png
    }

    /// An 11 MiB SVG (a long comment): over the default 10 MiB. Made for each test, not kept in a static: LeakSanitizer
    /// reports an 11 MiB static's storage as leaked at exit.
    static func bigSVG() -> Data {
        Data(
            (#"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="red"/><!--"#
                + String(repeating: "x", count: 11 << 20) + "--></svg>").utf8)
    }

    @Test(arguments: [([], 422), ([.png, .svg, .tiff], 200)] as [(Set<ImageFormat>, Int)])
    func pngAndSVGLimitsAreLiftedWhenAsked(unlimited: Set<ImageFormat>, status: Int) async throws {
        let png = try Self.bigPNG()
        try await ServerHarness.run(configureWithOrigin: { configuration, origin in
            configuration.unlimitedFormats = unlimited
            configuration.limits.maxSourceFileSize = 80 << 20
            origin.register(png, at: "/big.png")
            origin.register(Self.bigSVG(), at: "/big.svg", contentType: "image/svg+xml")
        }) { harness in
            let pngAnswer = try await harness.get(harness.url("w:2", "/big.png", ext: "png"))
            #expect(pngAnswer.status.code == status)
            let svgAnswer = try await harness.get(harness.url("w:4", "/big.svg", ext: "png"))
            #expect(svgAnswer.status.code == status)
            if status == 200 {
                #expect(try ServerHarness.image(svgAnswer).pixels[1, 1] == RGBA(red: 255, green: 0, blue: 0))
            }
        }
    }

    @Test func onlyPNGSVGAndTIFFHaveLimitsToLift() {
        var configuration = ImageServerConfiguration()
        configuration.unlimitedFormats = [.jpeg]
        #expect(throws: ImageServerConfigurationError.self) { try ImageServer(configuration: configuration) }
    }

    /// `webimage serve` reads imgproxy's variables: the SVG limit lifted by `IMGPROXY_SVG_UNLIMITED`, and none of
    /// the three named in the start-up warning.
    @Test(arguments: [([:], 422), (["IMGPROXY_SVG_UNLIMITED": "true"], 200)] as [([String: String], Int)])
    func imgproxysVariablesAreRead(environment: [String: String], status: Int) async throws {
        let origin = TestImageServer()
        try await origin.start()
        origin.register(Self.bigSVG(), at: "/big.svg", contentType: "image/svg+xml")
        var environment = environment
        environment["IMGPROXY_PNG_UNLIMITED"] = "false"
        environment["IMGPROXY_TIFF_UNLIMITED"] = "true"
        do {
            let log = try await ServeLifecycleTests.serve(environment: environment) { base in
                let answer = try await ServeImgproxyEnvironmentTests.get(
                    "\(base)/insecure/w:4/plain/\(origin.url("/big.svg").absoluteString)@png")
                #expect(answer.status == status)
            }
            #expect(!log.contains("_UNLIMITED"), "read, not named as ignored: \(log)")
        } catch {
            try await origin.shutdown()
            throw error
        }
        try await origin.shutdown()
    }
}
