import Foundation
import WebImage

/// The server's watermark image as ``WatermarkStep`` lays it: the first frame's pixels, in sRGB, and the setting's
/// opacity.
struct WatermarkImage: Sendable {
    /// The pixels, straight alpha.
    let pixels: PixelBuffer
    /// The setting's opacity, which the `watermark` option's multiplies.
    let opacity: Double
}

/// Loads the server's watermark image once and keeps it decoded (imgproxy's static watermark provider).
///
/// Bytes and files are decoded when the provider is made, so a bad image is a startup error, as in imgproxy. A URL
/// is fetched by ``ImageServer/prepare()`` at start (else at the first request that asks for a watermark), through
/// the server's ``SourceFetcher`` (its size limit, timeout and address rules, and its cache of originals);
/// concurrent requests share that one load (the package's ``WorkMerger``), and a failed load is tried again by the
/// next request.
actor WatermarkProvider {
    /// The image once decoded, or the URL it is still to be fetched from.
    private enum State {
        case ready(WatermarkImage)
        case remote(URL)
    }

    private var state: State
    /// The load of a URL watermark in flight, shared by the requests that wait for it.
    private let loads = WorkMerger<URL, WatermarkImage, Never, ImageServerError>()
    private let opacity: Double
    private let fetcher: SourceFetcher
    private let coders: any ImageCoding
    private let limits: ServerLimits

    /// A provider of `configuration`'s watermark; throws when its bytes or file are not an image the server reads.
    init(
        _ configuration: WatermarkConfiguration, fetcher: SourceFetcher, coders: any ImageCoding, limits: ServerLimits
    ) throws(ImageServerConfigurationError) {
        opacity = configuration.opacity
        self.fetcher = fetcher
        self.coders = coders
        self.limits = limits
        let data: Data
        let setting: String
        switch configuration.source.kind {
        case .url(let url):
            state = .remote(url)
            return
        case .data(let bytes):
            (data, setting) = (bytes, "watermark-data")
        case .path(let file):
            setting = "watermark-path"
            do { data = try Data(contentsOf: file) } catch {
                throw ImageServerConfigurationError("watermark-path", "cannot be read: \(file.path)")
            }
        }
        do {
            state = .ready(
                WatermarkImage(pixels: try Self.decode(data, coders: coders, limits: limits), opacity: opacity))
        } catch {
            throw ImageServerConfigurationError(setting, "is not usable: \(error.message)")
        }
    }

    /// The decoded watermark, fetched at the first call for a URL.
    func image() async throws(ImageServerError) -> WatermarkImage {
        let url: URL
        switch state {
        case .ready(let image): return image
        case .remote(let remote): url = remote
        }
        let (fetcher, coders, limits, opacity) = (fetcher, coders, limits, opacity)
        let image = try await loads.value(for: url, subscriber: WorkSubscriber(priority: .normal)) { url, _ in
            { await Self.fetch(url, fetcher: fetcher, coders: coders, limits: limits, opacity: opacity) }
        }
        state = .ready(image)
        return image
    }

    private static func fetch(
        _ url: URL, fetcher: SourceFetcher, coders: any ImageCoding, limits: ServerLimits, opacity: Double
    ) async -> Result<WatermarkImage, ImageServerError> {
        let source: SourceFetcher.Source
        do { source = try await fetcher.fetch(url) } catch {
            var failure = ImageServerError(status: error.status, "watermark image: \(error.message)")
            failure.originFailure = error.originFailure
            return .failure(failure)
        }
        return Result { () throws(ImageServerError) in
            WatermarkImage(pixels: try decode(source.data, coders: coders, limits: limits), opacity: opacity)
        }
    }

    /// The first frame of `data`, upright and in sRGB, within the source resolution limit; 422 otherwise.
    static func decode(
        _ data: Data, coders: any ImageCoding, limits: ServerLimits
    ) throws(ImageServerError) -> PixelBuffer {
        let unreadable = ImageServerError(status: 422, "watermark image cannot be decoded")
        guard let info = try? coders.info(of: data) else { throw unreadable }
        let (pixels, overflow) = info.width.multipliedReportingOverflow(by: info.height)
        guard !overflow, pixels <= limits.maxSourceResolution else {
            throw ImageServerError(status: 422, "watermark image resolution is too big")
        }
        let options = DecodingOptions(
            firstFrameOnly: true, limits: DecodingLimits(maxPixelsPerFrame: limits.maxSourceResolution))
        guard let image = try? coders.decode(data, options: options) else { throw unreadable }
        return image.pixels
    }
}
