import Foundation
import WebImage

/// The loaders that reach origins (HTTP(S), S3 sources), recording each download where it happens: the origin
/// fetches, the bytes and the download time. A cache hit, a shared-tier hit and a caller that joined another's
/// download never get here, so nothing needs to be counted after the fact.
struct OriginLoader: ImageLoading {
    let upstream: ImageLoaders
    let metrics: ServerMetrics

    init(_ loaders: [any ImageLoading], metrics: ServerMetrics) {
        upstream = ImageLoaders(loaders)
        self.metrics = metrics
    }

    func canLoad(_ url: URL) -> Bool { upstream.canLoad(url) }

    func load(
        _ request: ImageLoadRequest, progress: ImageLoadProgressHandler?, partialData: ImagePartialDataHandler?
    ) async throws(WebImageError) -> ImageResponse {
        let start = ContinuousClock.now
        let response = try await upstream.load(request, progress: progress, partialData: partialData)
        metrics.downloaded(since: start, bytes: response.data.count)
        return response
    }

    func shutdown() async throws { try await upstream.shutdown() }
}
