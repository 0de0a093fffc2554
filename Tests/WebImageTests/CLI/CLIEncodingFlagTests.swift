import Foundation
import Testing
import WebImageTesting

/// `webimage fetch`'s encoder flags: `--progressive` (progressive JPEG, interlaced PNG) and `--palette-colors`.
@Suite("CLI: webimage fetch encoder flags")
struct CLIEncodingFlagTests {
    @Test func progressiveAndPaletteOutputs() async throws {
        try await CLI.withTemporaryDirectory { home in
            let image = Fixtures.corpus.appendingPathComponent("images/gen_alpha.png").path
            let jpeg = home.appendingPathComponent("p.jpg")
            let progressive = try await CLI.run(
                ["fetch", image, "--progressive", "-o", jpeg.path, "--no-cache"], home: home)
            #expect(progressive.status == 0, "\(progressive.stderr)")
            #expect(try Data(contentsOf: jpeg).range(of: Data([0xFF, 0xC2])) != nil, "a progressive frame header")
            let png = home.appendingPathComponent("p.png")
            let palette = try await CLI.run(
                ["fetch", image, "--progressive", "--palette-colors", "8", "-o", png.path, "--no-cache"], home: home)
            #expect(palette.status == 0, "\(palette.stderr)")
            let bytes = try Data(contentsOf: png)
            #expect(bytes[25] == 3 && bytes[28] == 1, "indexed and interlaced")
            let bad = try await CLI.run(["fetch", image, "--palette-colors", "1", "--no-cache"], home: home)
            #expect(bad.status == 64)
        }
    }
}
