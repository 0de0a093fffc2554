import Foundation
import Logging
import WebImage
import WebImageStores

/// Fetches source bytes through the library's ``ImageManager``: its cache keeps originals, its runs coalesce
/// identical loads, its loaders enforce the download timeout and the size limit.
///
/// The only file that calls the manager's request API, so that a redesign of that API touches nothing else.
final class SourceFetcher: Sendable {
    let manager: ImageManager
    private let loaderOptions: ImageLoaderOptions

    init(
        cache: any ImageCaching, limits: ServerLimits, addressPolicy: SourceAddressPolicy, shared: SharedStore?,
        s3Sources: S3Client?, logger: Logger
    ) {
        var options = ImageLoaderOptions()
        options.timeout = limits.downloadTimeout
        options.maxBodySize = limits.maxSourceFileSize
        options.responseValidator = .statusOnly
        options.redirectLimit = 5
        loaderOptions = options
        var configuration = HTTPImageLoader.Configuration()
        configuration.addressPolicy = addressPolicy
        configuration.connectTimeout = .seconds(5)
        let http = HTTPImageLoader(configuration: configuration)
        // HTTP(S) with the SSRF rules at connect time and S3 sources, through the shared tier when there is one, and
        // files (for `local://`, already confined to the root).
        let origins = ImageLoaders([http] + (s3Sources.map { [S3ImageLoader(client: $0)] } ?? []))
        let network: any ImageLoading = shared.map { SharedStoreLoader(upstream: origins, store: $0) } ?? origins
        manager = ImageManager(
            configuration: .init(
                loader: ImageLoaders([network, FileImageLoader()]), cache: cache, remembersFailedURLs: false,
                logger: logger))
    }

    /// The source bytes at `url`, from the cache or the origin.
    func fetch(_ url: URL) async throws(ImageServerError) -> Data {
        let request = ImageRequest(
            url: url, options: [.avoidDecode, .retryFailed, .waitStoreCache], loaderOptions: loaderOptions)
        let result: ImageResult
        do { result = try await manager.image(for: request) } catch { throw Self.map(error) }
        guard let data = result.data else { throw ImageServerError(status: 404, "source is unavailable") }
        return data
    }

    /// Drops the cached original of `url` from memory and disk; returns whether there was one.
    func forget(_ url: URL) async -> Bool {
        let key = ImageRequest(url: url).cacheKey
        let cache = manager.configuration.cache
        guard await cache.contains(key, in: .all) != .none else { return false }
        await cache.remove(forKey: key, from: .all)
        return true
    }

    func shutdown() async { await manager.shutdown() }

    /// imgproxy's status for a failed fetch.
    static func map(_ error: WebImageError) -> ImageServerError {
        switch error.code {
        case .badStatus:
            let status = error.httpStatus ?? 404
            if (400..<500).contains(status) { return ImageServerError(status: status, "source answered \(status)") }
            if status >= 500 { return ImageServerError(status: 502, "source answered \(status)") }
            return ImageServerError(status: 404, "source answered \(status)")
        case .timedOut: return ImageServerError(status: 504, "source download timed out")
        case .bodyTooLarge, .tooLarge: return ImageServerError(status: 422, "source file is too big")
        case .forbiddenSource: return ImageServerError(status: 404, "source address is not allowed")
        case .cancelled: return ImageServerError(status: 503, "request cancelled")
        default: return ImageServerError(status: 404, "source is unavailable")
        }
    }
}
