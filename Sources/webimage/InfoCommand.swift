import ArgumentParser
import Foundation
import WebImage
import WebImageServer

/// `webimage info SOURCE`: what the image's header says, without decoding its pixels.
struct InfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print an image's format, size, frame count and orientation from its header.",
        discussion: """
            Only the header is parsed (no pixels are decoded), so this is fast even for huge images. Frame \
            durations are not in the headers of GIF, APNG and animated WebP in one place: --durations decodes the \
            whole animation to list them. The cache is not used.

            With any of the analysis flags below, or --info-options, the answer is instead the JSON the server's \
            /info endpoint gives for the same options (docs/info.md): size, format, mime_type, width, height, \
            orientation, exif, xmp by default, and each field asked for.

            Examples:
              webimage info photo.jpg
              webimage info https://example.com/anim.webp --durations
              webimage info anim.gif --json
              webimage info photo.jpg --average --blurhash 4:3 --thumb-hash
              webimage info photo.jpg --info-options dc:1:1/ph:1/chs:sha256
            """)

    @Argument(help: "The image: a path, a file:// or http(s):// URL, or a data: URI.")
    var source: String

    @Flag(help: "Decode every frame to list the frame durations (a full decode).")
    var durations = false

    @Option(help: "Seconds a load may take once started (default 15).")
    var timeout: Double?

    @Flag(help: "Print {source, format, width, height, frames, orientation, hasAlpha, bytes, durations?} as JSON.")
    var json = false

    @Option(help: "/info options, as in the URL (avg:1/dc:1:1/bh:4:3): print the /info JSON.")
    var infoOptions: String?

    @Flag(help: "The average colour, transparent pixels left out (/info's average).")
    var average = false

    @Flag(help: "The six dominant colours, missing ones built from found ones (/info's dominant_colors:1:1).")
    var dominantColors = false

    @Option(help: "The BlurHash with X:Y components, 1 to 9 each (/info's blurhash).")
    var blurhash: String?

    @Flag(help: "The ThumbHash, in hexadecimal (/info's thumb_hash).")
    var thumbHash = false

    @Flag(help: "The 64-bit perceptual hash (/info's perceptual_hash).")
    var perceptualHash = false

    @Option(help: "A palette of at most N colours, 2 to 256 (/info's palette).")
    var palette: Int?

    @Option(help: "Digests of the file: md5, sha1, sha256, sha512, comma-separated (/info's calc_hashsums).")
    var hashsums: String?

    struct Report: Encodable {
        let source: String
        let format: String
        let width: Int
        let height: Int
        let uprightWidth: Int
        let uprightHeight: Int
        let frames: Int
        let orientation: String
        let hasAlpha: Bool
        let bytes: Int
        let durations: [Double]?
    }

    func run() async throws {
        if let options = analysisOptions {
            try await printAnalysis(options)
            return
        }
        let report: Report
        do throws(WebImageError) {
            report = try await makeReport()
        } catch {
            printError("webimage: \(source): \(error)")
            throw ExitStatus.status(for: error)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
            return
        }
        print("format:      \(report.format)")
        print(
            "size:        \(report.width)x\(report.height)"
                + (report.uprightWidth != report.width
                    ? " (\(report.uprightWidth)x\(report.uprightHeight) upright)" : ""))
        print("frames:      \(report.frames)")
        print("orientation: \(report.orientation)")
        print("alpha:       \(report.hasAlpha ? "maybe" : "no")")
        print("bytes:       \(report.bytes)")
        if let durations = report.durations {
            let total = durations.reduce(0, +)
            print(
                "durations:   \(durations.map { String(format: "%.3f", $0) }.joined(separator: " ")) s (total \(String(format: "%.3f", total)) s)"
            )
        } else if report.frames > 1 {
            print("durations:   pass --durations to decode the animation and list them")
        }
    }

    private func makeReport() async throws(WebImageError) -> Report {
        let data = try await SourceReader.read(source, timeout: timeout)
        let info = try ImageCoders.default.info(of: data)
        var frameDurations: [Double]?
        var frames = info.frameCount
        if durations {
            let image = try ImageCoders.default.decode(data, options: DecodingOptions())
            frameDurations = image.frames.map(\.duration)
            frames = image.frames.count
        }
        return Report(
            source: source, format: info.format.name, width: info.width, height: info.height,
            uprightWidth: info.uprightSize.width, uprightHeight: info.uprightSize.height, frames: frames,
            orientation: "\(info.orientation)", hasAlpha: info.hasAlpha, bytes: data.count, durations: frameDurations)
    }
}
