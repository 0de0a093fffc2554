import Foundation
import WebImage

/// The server's fallback image, as encoded bytes the processor reads like a source's: read once when the server is
/// built from bytes or a file (a startup error when they are not an image), or fetched through the server's
/// ``SourceFetcher`` from a URL when first needed (its cache of originals keeps it; a failed fetch is tried again by
/// the next request).
struct FallbackImage: Sendable {
    let configuration: FallbackImageConfiguration
    private let bytes: Data?
    private let fetcher: SourceFetcher

    /// The fallback of `configuration`; throws when its bytes or file are not an image the server reads.
    init(
        _ configuration: FallbackImageConfiguration, fetcher: SourceFetcher, coders: any ImageCoding
    ) throws(ImageServerConfigurationError) {
        self.configuration = configuration
        self.fetcher = fetcher
        let setting: String
        switch configuration.source.kind {
        case .url:
            bytes = nil
            return
        case .data(let data):
            (bytes, setting) = (data, "fallback-image-data")
        case .path(let file):
            setting = "fallback-image-path"
            do { bytes = try Data(contentsOf: file) } catch {
                throw ImageServerConfigurationError(setting, "cannot be read: \(file.path)")
            }
        }
        guard let bytes, (try? coders.info(of: bytes)) != nil else {
            throw ImageServerConfigurationError(setting, "is not an image the server reads")
        }
    }

    /// The encoded image.
    func data() async throws(ImageServerError) -> Data {
        if let bytes { return bytes }
        guard case .url(let url) = configuration.source.kind else { throw ImageServerError(status: 500, "no image") }
        do { return try await fetcher.fetch(url).data } catch {
            var failure = ImageServerError(status: error.status, "fallback image: \(error.message)")
            failure.originFailure = error.originFailure
            throw failure
        }
    }

    /// The status of a fallback response for `failure`.
    func status(for failure: ImageServerError) -> Int {
        configuration.statusCode == 0 ? failure.status : configuration.statusCode
    }
}
