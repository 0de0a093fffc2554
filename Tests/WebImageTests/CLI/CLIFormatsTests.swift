import Foundation
import Testing
import WebImage
import WebImageTesting

/// `webimage fetch` with the formats of issue 25: JPEG XL, TIFF, BMP, ICO and CUR as sources, them and HEIC as
/// `--format` (SVG in `CLISVGTests`), and PNG gamma applied by default.
@Suite struct CLIFormatsTests {
    @Test func jxlSourcesAndJXLAndHEICOutputs() async throws {
        try await CLI.withTemporaryDirectory { home in
            let jxl = Fixtures.directory.appendingPathComponent("formats/images/jxl_orient6.jxl").path
            let png = home.appendingPathComponent("upright.png")
            let decoded = try await CLI.run(["fetch", jxl, "-o", png.path, "--no-cache", "--json"], home: home)
            #expect(decoded.status == 0, "\(decoded.stderr)")
            #expect(decoded.jsonLines.first?["format"] as? String == "jxl")
            let upright = try ImageCoders.default.decode(try Data(contentsOf: png), options: .default)
            #expect(upright.size == PixelSize(width: 96, height: 128))
            let source = Fixtures.corpus.appendingPathComponent("images/gen_alpha.png").path
            var formats = ["jxl"]
            if ImageCoders.default.canEncode(.heic) { formats.append("heic") }
            for format in formats {
                let result = try await CLI.run(
                    ["fetch", source, "--format", format, "--output-dir", home.path, "--no-cache"], home: home)
                #expect(result.status == 0, "\(format): \(result.stderr)")
                let output = home.appendingPathComponent("gen_alpha.\(format)")
                let data = try Data(contentsOf: output)
                #expect(ImageFormat.sniff(data).name == format)
            }
            let unknown = try await CLI.run(["fetch", source, "--format", "jpx", "--no-cache"], home: home)
            #expect(unknown.status == 64 && unknown.stderr.contains("jxl, heic"), "\(unknown.stderr)")
        }
    }

    @Test func tiffBMPAndIconSourcesAndOutputs() async throws {
        try await CLI.withTemporaryDirectory { home in
            let fixtures = [
                "tiff_rgb_lzw.tif", "tiff_rgba_unassociated.tif", "bmp_rle4.bmp", "ico_png.ico", "cur_bmp.cur",
            ]
            for name in fixtures {
                let source = Fixtures.directory.appendingPathComponent("formats/images/\(name)").path
                let png = home.appendingPathComponent("\(name).png")
                let decoded = try await CLI.run(["fetch", source, "-o", png.path, "--no-cache"], home: home)
                #expect(decoded.status == 0, "\(name): \(decoded.stderr)")
                let image = try ImageCoders.default.decode(try Data(contentsOf: png), options: .default)
                let info = try ImageCoders.default.info(of: try Data(contentsOf: URL(fileURLWithPath: source)))
                #expect(image.size == info.uprightSize, "\(name)")
            }
            let source = Fixtures.corpus.appendingPathComponent("images/gen_alpha.png").path
            for format in ["tiff", "bmp", "ico"] {
                let result = try await CLI.run(
                    ["fetch", source, "--format", format, "--output-dir", home.path, "--no-cache"], home: home)
                #expect(result.status == 0, "\(format): \(result.stderr)")
                let data = try Data(contentsOf: home.appendingPathComponent("gen_alpha.\(format)"))
                #expect(ImageFormat.sniff(data).name == format)
                #expect(!(try ImageCoders.default.decode(data, options: .default).isOpaque), "\(format) keeps alpha")
            }
        }
    }

    /// PngSuite's `basn2c08` says gamma 1.0 in `gAMA`: converted by default, as browsers show it, and as the corpus's
    /// reference (netpbm, which ignores `gAMA`) with `--no-png-gamma`.
    @Test func pngGammaIsAppliedUnlessTurnedOff() async throws {
        try await CLI.withTemporaryDirectory { home in
            let source = Fixtures.corpus.appendingPathComponent("images/pngsuite_basn2c08.png")
            let reference = try ReferenceImage.expected(
                for: source, reference: Fixtures.corpus.appendingPathComponent("expected/pngsuite_basn2c08.png.pam"))
            for (flags, matches) in [([String](), false), (["--no-png-gamma"], true)] {
                let output = home.appendingPathComponent("out\(matches).png")
                let result = try await CLI.run(
                    ["fetch", source.path, "-o", output.path, "--no-cache"] + flags, home: home)
                #expect(result.status == 0, "\(result.stderr)")
                let image = try ImageCoders.default.decode(try Data(contentsOf: output), options: .default)
                let difference = ReferenceImage.difference(image.pixels, reference)
                #expect(matches ? difference.max <= 2 : difference.mean > 5, "\(flags): \(difference)")
            }
        }
    }
}
