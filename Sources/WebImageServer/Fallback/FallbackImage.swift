import Foundation
import WebImage

/// The server's fallback image, as encoded bytes the processor reads like a source's: read when the server is built
/// from bytes or a file (a startup error when they are not an image), or fetched from a URL through the server's
/// ``SourceFetcher`` by ``ImageServer/prepare()``, at start as imgproxy fetches it (`webimage serve` then refuses to
/// start when the fetch fails), else by the first request that needs it, and kept with the `Cache-Control` its URL
/// answered with (imgproxy passes a fallback's own headers on, its `Expires` and `Last-Modified` removed).
struct FallbackImage: Sendable {
    let configuration: FallbackImageConfiguration
    /// The bytes once read or fetched, with the `Cache-Control` of a fetched one.
    private let bytes: Locked<Fetched?>
    private let fetcher: SourceFetcher
    private let coders: any ImageCoding

    /// The fallback of `configuration`; throws when its bytes or file are not an image the server reads.
    init(
        _ configuration: FallbackImageConfiguration, fetcher: SourceFetcher, coders: any ImageCoding
    ) throws(ImageServerConfigurationError) {
        self.configuration = configuration
        self.fetcher = fetcher
        self.coders = coders
        let setting: String
        let data: Data
        switch configuration.source.kind {
        case .url:
            bytes = Locked(nil)
            return
        case .data(let given):
            (data, setting) = (given, "fallback-image-data")
        case .path(let file):
            setting = "fallback-image-path"
            do { data = try Data(contentsOf: file) } catch {
                throw ImageServerConfigurationError(setting, "cannot be read: \(file.path)")
            }
        }
        guard (try? coders.info(of: data)) != nil else {
            throw ImageServerConfigurationError(setting, "is not an image the server reads")
        }
        bytes = Locked(Fetched(data: data, cacheControl: nil))
    }

    /// The encoded image and, for a URL, the `Cache-Control` it was answered with.
    struct Fetched: Sendable {
        let data: Data
        let cacheControl: String?
    }

    /// The encoded image, fetched the first time from a URL.
    func data() async throws(ImageServerError) -> Data { try await image().data }

    /// The encoded image with its URL's `Cache-Control`, fetched the first time from a URL.
    func image() async throws(ImageServerError) -> Fetched {
        if let kept = bytes.withLock({ $0 }) { return kept }
        guard case .url(let url) = configuration.source.kind else { throw ImageServerError(status: 500, "no image") }
        let source: SourceFetcher.Source
        do { source = try await fetcher.fetch(url) } catch {
            var failure = ImageServerError(status: error.status, "fallback image: \(error.message)")
            failure.originFailure = error.originFailure
            throw failure
        }
        guard (try? coders.info(of: source.data)) != nil else {
            throw ImageServerError(status: 422, "fallback image: not an image the server reads")
        }
        let fetched = Fetched(data: source.data, cacheControl: source.validators.cacheControl)
        bytes.withLock { $0 = fetched }
        return fetched
    }

    /// The status of a fallback response for `failure`.
    func status(for failure: ImageServerError) -> Int {
        configuration.statusCode == 0 ? failure.status : configuration.statusCode
    }

    /// `Cache-Control` of a fallback response answered with `status`, as imgproxy's response writer sets it: the
    /// fallback TTL when there is one (the time left to `expires` instead when that is sooner, at most `ttl`, the
    /// server's); else none on an error status (400 and up), as on any error; else `result`, the result's own.
    func cacheControl(status: Int, expires: Int?, now: Int, ttl: Int, result: String?) -> String? {
        let fallbackTTL = configuration.ttl
        guard fallbackTTL > 0 else { return status >= 400 ? nil : result }
        var maxAge = fallbackTTL
        if let expires, expires - now < fallbackTTL { maxAge = min(ttl, max(0, expires - now)) }
        return "max-age=\(maxAge), public"
    }
}
