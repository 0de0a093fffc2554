import Foundation
import WebImage

/// One source of `webimage fetch`: its request through the manager (cache, load, shrink-on-load decode,
/// transform), then the encoded output.
struct FetchJob: Sendable {
    /// What happened, for `--json`.
    struct Report: Encodable {
        let source: String
        let format: String
        let width: Int
        let height: Int
        let frames: Int
        /// The size of the bytes the image came from; absent for a memory hit.
        let bytes: Int?
        let output: String?
        let outputBytes: Int?
        /// Where the image came from: `none` (loaded), `memory` or `disk`.
        let cacheType: String
        /// Seconds per stage: cacheQuery, load, decode, transform, store, total.
        let timings: ImageMetrics
    }

    let source: String
    /// The request, or why the source could not become one.
    let request: Result<ImageRequest, WebImageError>
    let output: String?
    let outputFormat: ImageFormat?
    /// How the output is encoded (the first frame only where its format cannot animate).
    let encoding: EncodingOptions

    func run(with manager: ImageManager) async throws(WebImageError) -> Report {
        let result = try await manager.image(for: try request.get())
        guard let image = result.image else {
            throw WebImageError(.corruptData, "the manager returned no image", url: result.url)
        }
        var written: Int?
        if let output { written = try write(image, to: output) }
        return Report(
            source: source, format: image.format.name, width: image.width, height: image.height,
            frames: image.frames.count, bytes: result.data?.count, output: output, outputBytes: written,
            cacheType: result.cacheType.description, timings: result.metrics)
    }

    private func write(_ image: Image, to path: String) throws(WebImageError) -> Int {
        let url = URL(fileURLWithPath: path)
        guard let format = outputFormat ?? ImageFormat(fileExtension: url.pathExtension),
            ImageCoders.default.canEncode(format)
        else {
            throw WebImageError(.invalidArgument, "cannot tell an output format from '\(url.lastPathComponent)'")
        }
        var options = encoding
        options.firstFrameOnly = !format.supportsAnimation
        let encoded = try ImageCoders.default.encode(image, as: format, options: options)
        do {
            try encoded.write(to: url, options: .atomic)
        } catch {
            throw WebImageError(
                .writeFailed, "cannot write \(path): \(error.localizedDescription)", underlying: error)
        }
        return encoded.count
    }
}
