import ArgumentParser
import Foundation
import WebImage

/// `webimage fetch SOURCE -o OUT`: load an image, decode it, and write it in the format OUT's extension names.
struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Load and decode an image, then write it out.",
        discussion: """
            SOURCE is a file path, a file:// or http(s):// URL, or a data: URI. The output format follows the
            extension of OUT (.png, .jpg, .webp); animations keep their frames in WebP and lose all but the first
            in PNG and JPEG.

            Examples:
              webimage fetch photo.jpg -o photo.png
              webimage fetch anim.gif -o anim.webp --json
            """
    )

    @Argument(help: "The image to load: a path, a file:// or http(s):// URL, or a data: URI.")
    var source: String

    @Option(help: "Seconds a load may take once started (default 15).")
    var timeout: Double?

    @Option(name: .shortAndLong, help: "Where to write the image; its extension picks the format.")
    var output: String?

    @Option(help: "Quality for JPEG and lossy WebP output, 1 to 100.")
    var quality: Int = 80

    @Flag(help: "Print {source, format, width, height, frames, bytes} as JSON.")
    var json = false

    func validate() throws {
        if let timeout, !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    func run() async throws {
        do {
            let data = try await SourceReader.read(source, timeout: timeout)
            let image = try ImageCoders.default.decode(data, options: .default)
            var written: Int?
            if let output {
                written = try write(image, to: output)
            }
            if json {
                try printJSON(image: image, inputBytes: data.count, outputBytes: written)
            }
        } catch let error as WebImageError {
            FileHandle.standardError.write(Data("webimage: \(source): \(error)\n".utf8))
            throw ExitStatus.status(for: error)
        }
    }

    private func write(_ image: Image, to path: String) throws -> Int {
        let url = URL(fileURLWithPath: path)
        guard let format = ImageFormat(fileExtension: url.pathExtension), ImageCoders.default.canEncode(format) else {
            throw WebImageError(.invalidArgument, "cannot tell an output format from '\(url.lastPathComponent)'")
        }
        let options = EncodingOptions(quality: quality, firstFrameOnly: format != .webp)
        let encoded = try ImageCoders.default.encode(image, as: format, options: options)
        do {
            try encoded.write(to: url, options: .atomic)
        } catch {
            throw WebImageError(.encodingFailed, "cannot write \(path): \(error.localizedDescription)")
        }
        return encoded.count
    }

    private func printJSON(image: Image, inputBytes: Int, outputBytes: Int?) throws {
        struct Report: Encodable {
            let source: String
            let format: String
            let width: Int
            let height: Int
            let frames: Int
            let bytes: Int
            let outputBytes: Int?
        }
        let report = Report(
            source: source, format: image.format.name, width: image.width, height: image.height,
            frames: image.frames.count, bytes: inputBytes, outputBytes: outputBytes)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        print(String(decoding: try encoder.encode(report), as: UTF8.self))
    }
}
