import Foundation
import WebImage

/// One source of `webimage fetch`: load, decode (shrinking on load when resizing), transform, encode, write.
struct FetchJob: Sendable {
    /// What happened, for `--json`.
    struct Report: Encodable {
        let source: String
        let format: String
        let width: Int
        let height: Int
        let frames: Int
        let bytes: Int
        let output: String?
        let outputBytes: Int?
    }

    let source: String
    let timeout: Double?
    let output: String?
    let outputFormat: ImageFormat?
    let quality: Int
    let resize: Resize?
    let resizeComesFirst: Bool
    let pipeline: TransformerPipeline?

    func run() async throws(WebImageError) -> Report {
        let data = try await SourceReader.read(source, timeout: timeout)
        let coders = ImageCoders.default
        var options = DecodingOptions()
        if let resize, resizeComesFirst {
            options.targetSize = try resize.minimumSourceSize(for: try coders.info(of: data).uprightSize)
        }
        var image = try coders.decode(data, options: options)
        if let pipeline { image = try pipeline.transform(image) }
        var written: Int?
        if let output { written = try write(image, to: output) }
        return Report(
            source: source, format: image.format.name, width: image.width, height: image.height,
            frames: image.frames.count, bytes: data.count, output: output, outputBytes: written)
    }

    private func write(_ image: Image, to path: String) throws(WebImageError) -> Int {
        let url = URL(fileURLWithPath: path)
        guard let format = outputFormat ?? ImageFormat(fileExtension: url.pathExtension),
            ImageCoders.default.canEncode(format)
        else {
            throw WebImageError(.invalidArgument, "cannot tell an output format from '\(url.lastPathComponent)'")
        }
        let options = EncodingOptions(quality: quality, firstFrameOnly: format != .webp)
        let encoded = try ImageCoders.default.encode(image, as: format, options: options)
        do {
            try encoded.write(to: url, options: .atomic)
        } catch {
            throw WebImageError(.encodingFailed, "cannot write \(path): \(error.localizedDescription)", underlying: error)
        }
        return encoded.count
    }
}
