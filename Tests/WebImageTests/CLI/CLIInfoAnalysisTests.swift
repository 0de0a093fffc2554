import Foundation
import Testing
import WebImage

/// `webimage info` with the analysis flags prints the server's `/info` JSON, the library's values in it.
@Suite("CLI: webimage info analyses")
struct CLIInfoAnalysisTests {
    @Test func analysisFlagsPrintTheInfoJSON() async throws {
        try await CLI.withTemporaryDirectory { home in
            let pixels = PixelBuffer(width: 40, height: 30, filledWith: RGBA(red: 200, green: 40, blue: 60))
            let png = try ImageCoders.default.encode(Image(pixels: pixels), as: .png, options: .default)
            let file = home.appendingPathComponent("red.png")
            try png.write(to: file)
            let result = try await CLI.run(
                [
                    "info", file.path, "--json", "--average", "--blurhash", "4:3", "--thumb-hash", "--perceptual-hash",
                    "--hashsums", "md5,sha1", "--info-options", "cs:1/b:1",
                ], home: home)
            #expect(result.status == 0, "\(result.stderr)")
            let json = try #require(result.jsonLines.first)
            #expect(
                json["format"] as? String == "png" && json["width"] as? Int == 40 && json["size"] as? Int == png.count)
            #expect(json["average"] as? [String: Int] == ["R": 200, "G": 40, "B": 60, "A": 255])
            #expect(json["blurhash"] as? String == (try BlurHash.encode(pixels, xComponents: 4, yComponents: 3)))
            #expect(json["perceptual_hash"] as? String == PerceptualHash(pixels).hex)
            #expect((json["thumb_hash"] as? String)?.count == ThumbHash.encode(pixels).count * 2)
            #expect((json["hashsums"] as? [String: String])?.keys.sorted() == ["md5", "sha1"])
            #expect(json["colorspace"] as? String == "srgb" && json["bands"] as? Int == 3)
            let bad = try await CLI.run(["info", file.path, "--blurhash", "12:3"], home: home)
            #expect(bad.status == 64)
        }
    }
}
