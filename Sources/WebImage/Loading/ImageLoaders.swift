import Foundation

/// A loader made of loaders: each URL goes to the first one whose ``ImageLoading/canLoad(_:)`` accepts it.
public struct ImageLoaders: ImageLoading {
    /// The loaders, in the order they are asked.
    public let loaders: [any ImageLoading]

    /// Creates a composite asking `loaders` in order.
    public init(_ loaders: [any ImageLoading]) { self.loaders = loaders }

    /// The loader that would handle `url`.
    public func loader(for url: URL) -> (any ImageLoading)? { loaders.first { $0.canLoad(url) } }

    public func canLoad(_ url: URL) -> Bool { loader(for: url) != nil }

    public func load(
        _ request: ImageLoadRequest, progress: ImageLoadProgressHandler?, partialData: ImagePartialDataHandler?
    ) async throws(WebImageError) -> ImageResponse {
        guard let loader = loader(for: request.url) else {
            throw WebImageError(.invalidSource, "no loader handles this URL", url: request.url)
        }
        return try await loader.load(request, progress: progress, partialData: partialData)
    }

    /// Shuts every loader down, even when one fails; throws the first failure.
    public func shutdown() async throws {
        var failure: (any Error)?
        for loader in loaders {
            do { try await loader.shutdown() } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
    }
}
