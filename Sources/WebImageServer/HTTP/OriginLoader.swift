import Foundation
import NIOConcurrencyHelpers
import WebImage

/// The loaders that reach origins (HTTP(S), S3 sources), noting each URL they are asked for, so the server counts an
/// origin fetch only when one happened: not for a cache hit, a shared-tier hit, or a caller that joined another's
/// download.
struct OriginLoader: ImageLoading {
    let upstream: ImageLoaders
    /// URLs fetched from their origin and not yet claimed by ``claim(_:)`` (`NIOLockedValueBox`).
    private let fetched = NIOLockedValueBox<[URL: Int]>([:])

    init(_ loaders: [any ImageLoading]) { upstream = ImageLoaders(loaders) }

    func canLoad(_ url: URL) -> Bool { upstream.canLoad(url) }

    func load(
        _ request: ImageLoadRequest, progress: ImageLoadProgressHandler?, partialData: ImagePartialDataHandler?
    ) async throws(WebImageError) -> ImageResponse {
        fetched.withLockedValue { $0[request.url, default: 0] += 1 }
        return try await upstream.load(request, progress: progress, partialData: partialData)
    }

    /// Whether `url` was fetched from its origin since the last claim; each fetch is claimed once.
    func claim(_ url: URL) -> Bool {
        fetched.withLockedValue { fetched in
            guard let count = fetched[url] else { return false }
            fetched[url] = count > 1 ? count - 1 : nil
            return true
        }
    }

    func shutdown() async throws { try await upstream.shutdown() }
}
