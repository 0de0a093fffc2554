import Foundation
import Testing
import WebImage
import WebImageTesting

/// `webimage fetch` and `info` on SVG sources: rendered at the size asked for, hostile files a clean exit 65 with
/// nothing from librsvg or GLib on stderr.
@Suite("CLI: SVG")
struct CLISVGTests {
    /// A thumbnail is rendered at its size (the decode's shrink-on-load target), not rendered large and resampled;
    /// as for any source, `--resize` does not enlarge.
    @Test func fetchRendersAnSVGAtTheRequestedSize() async throws {
        try await CLI.withServer { server, home in
            let source = server.url("/fixtures/formats/images/svg_shapes.svg").absoluteString
            for (size, expected) in [
                ("32x24", PixelSize(width: 32, height: 24)), ("640x480", PixelSize(width: 64, height: 48)),
            ] {
                let output = home.appendingPathComponent("shapes-\(size).png")
                let result = try await CLI.run(
                    ["fetch", source, "--resize", size, "-o", output.path, "--no-cache", "--json"], home: home)
                #expect(result.status == 0, "\(result.stderr)")
                #expect(result.stderr.isEmpty, "\(result.stderr)")
                let report = try #require(result.jsonLines.first)
                #expect(report["format"] as? String == "svg")
                let image = try PNGCoder().decode(try Data(contentsOf: output), options: .default)
                #expect(image.size == expected)
            }
        }
    }

    @Test func infoReadsTheIntrinsicSize() async throws {
        try await CLI.withTemporaryDirectory { home in
            let file = Fixtures.directory.appendingPathComponent("formats/images/svg_units.svg").path
            let result = try await CLI.run(["info", file, "--json"], home: home)
            #expect(result.status == 0, "\(result.stderr)")
            let info = try #require(result.jsonLines.first)
            #expect(info["format"] as? String == "svg")
            #expect(info["width"] as? Int == 48 && info["height"] as? Int == 24)
        }
    }

    @Test func hostileFilesExit65Quietly() async throws {
        try await CLI.withTemporaryDirectory { home in
            let documents = [
                #"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect"#,
                #"<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg">&x;</svg>"#,
                #"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect fill="url(#nowhere)" width="1" height="1" filter="url(#none)"/><image href="file:///etc/passwd"/></svg>"#,
                // Bytes its declared encoding cannot convert: libxml2 reports them through its generic error function,
                // which prints to stderr unless replaced (found by fuzz-svg).
                "<?xml version=\"1.0\" encoding=\"UTF-7\"?><svg>\u{0}svg",
            ]
            for (index, text) in documents.enumerated() {
                let file = home.appendingPathComponent("hostile\(index).svg")
                try Data(text.utf8).write(to: file)
                let info = try await CLI.run(["info", file.path], home: home)
                let fetch = try await CLI.run(
                    ["fetch", file.path, "-o", home.appendingPathComponent("out\(index).png").path, "--no-cache"],
                    home: home)
                for result in [info, fetch] where result.status != 0 {
                    #expect(result.status == 65, "\(result.stderr)")
                    #expect(!result.stderr.contains("librsvg") && !result.stderr.contains("GLib"), "\(result.stderr)")
                    #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
                }
                #expect(index == 2 || info.status == 65)
                #expect(!info.stderr.contains("encoding error") && !fetch.stderr.contains("encoding error"))
            }
        }
    }
}
