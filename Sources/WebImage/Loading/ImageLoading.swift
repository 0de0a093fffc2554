import Foundation

/// Called as bytes arrive: the bytes received so far and the expected total, when the source announced it.
/// The HTTP loader calls it on a network thread, between reads: keep it short and hand real work elsewhere.
public typealias ImageLoadProgressHandler = @Sendable (_ received: Int, _ expected: Int?) -> Void

/// Called with every byte received so far, for progressive decoding; on a network thread, like the progress
/// handler, so decode elsewhere.
public typealias ImagePartialDataHandler = @Sendable (_ data: Data) -> Void

/// Something that turns a URL into encoded image bytes: the network, the file system, a `data:` URI.
///
/// Loaders are small and composable; ``ImageLoaders`` picks the first one whose ``canLoad(_:)`` accepts a URL.
/// A load is cancelled by cancelling the Swift task that awaits it; it then throws ``WebImageError/Code/cancelled``.
public protocol ImageLoading: Sendable {
    /// Whether this loader handles `url` (by its scheme, usually).
    func canLoad(_ url: URL) -> Bool

    /// Loads the bytes of `request.url`.
    ///
    /// - Parameters:
    ///   - request: The URL and the per-request settings.
    ///   - progress: Called as bytes arrive, from any thread; `nil` to skip.
    ///   - partialData: Called with the bytes received so far, for progressive decoding; `nil` to skip (cheaper).
    /// - Returns: The bytes and what the source said about them.
    /// - Throws: ``WebImageError``; ``WebImageError/isTransient`` tells whether trying again may help.
    func load(
        _ request: ImageLoadRequest,
        progress: ImageLoadProgressHandler?,
        partialData: ImagePartialDataHandler?
    ) async throws(WebImageError) -> ImageResponse

    /// Releases what the loader holds (connections, clients); loads after it fail. The manager calls it from
    /// ``ImageManager/shutdown()``, composites pass it on. The default does nothing.
    func shutdown() async throws
}

extension ImageLoading {
    public func shutdown() async throws {}

    /// Loads `url` with `options` and no progress reporting.
    public func load(_ url: URL, options: ImageLoaderOptions = .default) async throws(WebImageError) -> ImageResponse {
        try await load(ImageLoadRequest(url: url, options: options), progress: nil, partialData: nil)
    }

    /// Loads `request` with no progress reporting.
    public func load(_ request: ImageLoadRequest) async throws(WebImageError) -> ImageResponse {
        try await load(request, progress: nil, partialData: nil)
    }
}
