import Foundation
import WebImage

/// A loader that reads originals through the shared tier, so a cluster fetches each source from its origin once.
///
/// For a source it finds fresh in the tier it answers from there. Otherwise the first node to take the source's lease
/// (``SharedStore/acquireLease(source:duration:now:)``, a conditional PUT) downloads it through `upstream`, stores it
/// and gives the lease back; the others poll the tier for the original until the download timeout, and only then
/// (or when the lease is given back without an original, because the download failed) fetch it themselves. Within
/// its lifetime a stored original is never revalidated with the origin. Conditional requests (`If-None-Match`,
/// `If-Modified-Since`) go straight to `upstream`.
public struct SharedStoreLoader: ImageLoading {
    /// The loader that reaches origins.
    public let upstream: any ImageLoading
    /// The shared tier.
    public let store: SharedStore
    /// How long a stored original stays fresh when the origin's `Cache-Control` gives no `max-age`.
    public let lifetime: Duration
    /// How often a waiting node looks for the original another node is downloading.
    public let pollInterval: Duration

    /// A loader that reads through `store` and downloads with `upstream`.
    public init(
        upstream: any ImageLoading, store: SharedStore, lifetime: Duration = .seconds(365 * 86_400),
        pollInterval: Duration = .milliseconds(50)
    ) {
        self.upstream = upstream
        self.store = store
        self.lifetime = lifetime
        self.pollInterval = pollInterval
    }

    public func canLoad(_ url: URL) -> Bool { upstream.canLoad(url) }

    /// Shuts `upstream` down (the store's client belongs to whoever made the store).
    public func shutdown() async throws { try await upstream.shutdown() }

    public func load(
        _ request: ImageLoadRequest, progress: ImageLoadProgressHandler?, partialData: ImagePartialDataHandler?
    ) async throws(WebImageError) -> ImageResponse {
        if request.options.ifNoneMatch != nil || request.options.ifModifiedSince != nil {
            return try await fetch(request, progress: progress, partialData: partialData, store: false)
        }
        let source = request.url.absoluteString
        let deadline = ContinuousClock.now.advanced(by: request.options.timeout)
        // Look for the original, else try to take the lease; a node that waits does both again each round, so it
        // sees an original stored (and the lease given back) between its two looks.
        while true {
            if let stored = await store.original(source: source), stored.isFresh { return response(stored, request) }
            if await store.acquireLease(source: source, duration: request.options.timeout) {
                // The holder before us may have stored the original and given the lease back since we looked.
                if let stored = await store.original(source: source), stored.isFresh {
                    await store.releaseLease(source: source)
                    return response(stored, request)
                }
                return try await fetch(request, progress: progress, partialData: partialData, store: true)
            }
            guard ContinuousClock.now < deadline else { break }
            do { try await Task.sleep(for: pollInterval) } catch {
                throw WebImageError(.cancelled, "cancelled while waiting for \(request.url)", url: request.url)
            }
        }
        return try await fetch(request, progress: progress, partialData: partialData, store: false)
    }

    /// Downloads from the origin and, when `store`, writes the original to the tier and gives the lease back.
    private func fetch(
        _ request: ImageLoadRequest, progress: ImageLoadProgressHandler?, partialData: ImagePartialDataHandler?,
        store: Bool
    ) async throws(WebImageError) -> ImageResponse {
        let source = request.url.absoluteString
        let response: ImageResponse
        do {
            response = try await upstream.load(request, progress: progress, partialData: partialData)
        } catch {
            if store { await self.store.releaseLease(source: source) }
            throw error
        }
        guard store else { return response }
        let lifetime = Self.maxAge(response.headers["Cache-Control"]) ?? lifetime
        if !response.isNotModified, lifetime > .zero {
            await self.store.storeOriginal(
                response.data, contentType: response.contentType, lastModified: response.lastModified,
                etag: response.etag, cacheControl: response.cacheControl, expires: response.expires,
                lifetime: lifetime, source: source)
        }
        await self.store.releaseLease(source: source)
        return response
    }

    private func response(_ stored: SharedStore.Original, _ request: ImageLoadRequest) -> ImageResponse {
        var headers: [(name: String, value: String)] = []
        if let type = stored.contentType { headers.append(("Content-Type", type)) }
        if let modified = stored.lastModified { headers.append(("Last-Modified", modified)) }
        if let etag = stored.etag { headers.append(("ETag", etag)) }
        if let cacheControl = stored.cacheControl { headers.append(("Cache-Control", cacheControl)) }
        if let expires = stored.expires { headers.append(("Expires", expires)) }
        var response = ImageResponse(
            data: stored.data, url: request.url, httpStatus: 200, headers: ImageHTTPHeaders(headers),
            expectedLength: stored.data.count)
        response.fromSharedCache = true
        return response
    }

    /// `max-age` of a `Cache-Control` value, unless the origin forbids storing (`no-store`, `no-cache`, `private`).
    static func maxAge(_ cacheControl: String?) -> Duration? {
        guard let cacheControl else { return nil }
        var maxAge: Duration?
        for directive in cacheControl.lowercased().split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let name = parts.first else { continue }
            if ["no-store", "no-cache", "private"].contains(name) { return .zero }
            if name == "max-age", parts.count == 2, let seconds = Int(parts[1]), seconds >= 0 {
                maxAge = .seconds(seconds)
            }
        }
        return maxAge
    }
}
