import Foundation
import Instrumentation
import Logging
import WebImage
import WebImageStores

/// Fetches source bytes through the library's ``ImageManager``: its cache keeps originals, its runs coalesce
/// identical loads, its loaders enforce the download timeout and the size limit.
///
/// The only file that calls the manager's request API, so that a redesign of that API touches nothing else.
final class SourceFetcher: Sendable {
    /// Source bytes and what the server needs to know about them.
    struct Source: Sendable {
        var data: Data
        /// The origin's `ETag`, `Last-Modified`, `Cache-Control` and `Expires`, each when it sent one.
        var validators: ImageValidators
    }

    let manager: ImageManager
    private let loaderOptions: ImageLoaderOptions
    /// The loaders that reach origins, without the cache or the shared tier, for ``passThrough(_:headers:maxSize:)``.
    private let origins: OriginLoader
    private let logger: Logger

    /// A fetcher whose downloads are counted in `metrics`. Each download holds a place in the processing queue
    /// (``ProcessingGate/reserve()``), so as many may run at once as there are slots and queue places: the loader's
    /// download limit is sized from them rather than left at its default of 6, which held a node behind a slow
    /// origin to six downloads however many requests waited. With `propagatesTraces` origins get the trace context, as
    /// `traceInstrument` (else the bootstrapped tracer) writes it.
    init(
        cache: any ImageCaching, limits: ServerLimits, addressPolicy: SourceAddressPolicy, shared: SharedStore?,
        s3Sources: S3Client?, s3Buckets: S3BucketPolicy = S3BucketPolicy(), s3AccessPoints: [String: String] = [:],
        s3Decryption: S3DecryptionClient? = nil, objectSources: [ObjectStoreImageLoader] = [],
        fetching: FetchSettings = FetchSettings(),
        propagatesTraces: Bool = false, traceInstrument: (any Instrument)? = nil,
        metrics: ServerMetrics, logger: Logger
    ) {
        var options = ImageLoaderOptions()
        options.userAgent = fetching.resolvedUserAgent
        options.allowsInvalidCertificates = fetching.ignoresCertificateErrors
        options.timeout = limits.downloadTimeout
        options.maxBodySize = limits.maxSourceFileSize
        options.responseValidator = Self.imgproxyStatuses
        options.redirectLimit = limits.maxRedirects
        loaderOptions = options
        self.logger = logger
        var configuration = HTTPImageLoader.Configuration()
        configuration.maxConcurrentDownloads = Self.downloadLimit(limits)
        configuration.addressPolicy = addressPolicy
        configuration.connectTimeout = .seconds(5)
        configuration.propagatesTraceContext = propagatesTraces
        configuration.traceInstrument = traceInstrument
        configuration.idleConnectionTimeout = fetching.clientKeepAlive
        let http = HTTPImageLoader(configuration: configuration)
        // HTTP(S) with the SSRF rules at connect time, S3 and the other object stores' sources, through the shared tier when there is one, and
        // files (for `local://`, already confined to the root).
        let s3 =
            s3Sources.map {
                [
                    S3ImageLoader(
                        client: $0, buckets: s3Buckets, accessPoints: s3AccessPoints, decryption: s3Decryption)
                ]
            } ?? []
        let origins = OriginLoader([http] + s3 + objectSources, metrics: metrics)
        self.origins = origins
        let network: any ImageLoading = shared.map { SharedStoreLoader(upstream: origins, store: $0) } ?? origins
        manager = ImageManager(
            configuration: .init(
                loader: ImageLoaders([network, FileImageLoader()]), cache: cache, remembersFailedURLs: false,
                logger: logger))
    }

    /// The source bytes at `url`, from the cache or the origin; `maxSize` replaces the server's largest source file
    /// (a request's `max_src_file_size`), and a cached original larger than it is refused too.
    func fetch(_ url: URL, maxSize: Int? = nil) async throws(ImageServerError) -> Source {
        var options = loaderOptions
        if let maxSize { options.maxBodySize = maxSize }
        let request = ImageRequest(
            url: url, options: [.avoidDecode, .retryFailed, .waitStoreCache], loaderOptions: options)
        let result: ImageResult
        do { result = try await manager.image(for: request) } catch {
            logRefusedCredentials(error)
            throw Self.map(error)
        }
        guard let data = result.data else { throw ImageServerError(status: 404, "source is unavailable") }
        if let maxSize, data.count > maxSize {
            throw Self.map(WebImageError(.bodyTooLarge, "source file is too big", url: url))
        }
        return Source(data: data, validators: result.validators)
    }

    /// The source bytes at `url` fetched with the client's `cookies` (a `Cookie` field): straight from the origin,
    /// never from or into a cache or the shared tier, and not merged with other fetches, since the origin may answer
    /// each client differently. A source that is not HTTP(S) is fetched as ``fetch(_:maxSize:)`` fetches it.
    func fetch(_ url: URL, cookies: String, maxSize: Int? = nil) async throws(ImageServerError) -> Source {
        guard HTTPImageLoader.canLoadScheme(of: url) else { return try await fetch(url, maxSize: maxSize) }
        var options = loaderOptions
        if let maxSize { options.maxBodySize = maxSize }
        options.requestModifier = .headers(["Cookie": cookies])
        do {
            let response = try await origins.load(ImageLoadRequest(url: url, options: options))
            return Source(data: response.data, validators: Self.validators(of: response))
        } catch { throw Self.map(error) }
    }

    /// The origin's answer to `url` as it is, whatever its status (imgproxy's stream of a `raw` request): `headers`
    /// are sent with the request, and the body is read whole under the largest source file (`maxSize` when given),
    /// the download timeout, the redirect limit and the address rules, never from or into the cache. A source that is
    /// not HTTP(S) (`local://`, `s3://`) is fetched as ``fetch(_:maxSize:)`` fetches it and answered as a 200.
    func passThrough(
        _ url: URL, headers: ImageHTTPHeaders, maxSize: Int? = nil
    ) async throws(ImageServerError) -> ImageResponse {
        guard HTTPImageLoader.canLoadScheme(of: url) else {
            let source = try await fetch(url, maxSize: maxSize)
            var fields = ImageHTTPHeaders()
            if let lastModified = source.validators.lastModified { fields["Last-Modified"] = lastModified }
            if let etag = source.validators.etag { fields["ETag"] = etag }
            return ImageResponse(data: source.data, url: url, httpStatus: 200, headers: fields)
        }
        var options = loaderOptions
        if let maxSize { options.maxBodySize = maxSize }
        options.requestModifier = .headers(headers)
        options.responseValidator = .acceptAll
        do { return try await origins.load(ImageLoadRequest(url: url, options: options)) } catch {
            throw Self.map(error)
        }
    }

    /// `url` from its origin itself (never the cache or the shared tier), asked with `conditions` as `If-None-Match`
    /// and `If-Modified-Since`, under the source limits (`maxSize` for the largest file when given); a 304 comes back
    /// as ``WebImage/ImageResponse/isNotModified``.
    func loadFromOrigin(
        _ url: URL, conditions: ImageValidators, maxSize: Int?
    ) async throws(ImageServerError) -> ImageResponse {
        var options = loaderOptions
        if let maxSize { options.maxBodySize = maxSize }
        options.ifNoneMatch = conditions.etag
        options.ifModifiedSince = conditions.lastModified
        options.responseValidator = Self.conditionalStatuses
        do { return try await origins.load(ImageLoadRequest(url: url, options: options)) } catch {
            throw Self.map(error)
        }
    }

    /// What `response` said about its bytes: its validators and freshness headers.
    static func validators(of response: ImageResponse) -> ImageValidators {
        ImageValidators(
            etag: response.etag, lastModified: response.lastModified, cacheControl: response.cacheControl,
            expires: response.expires)
    }

    /// Logs an S3 source store's refusal of the credentials (401, 403) with where they came from, which the client's
    /// answer does not show: a wrong key, secret or expired token is a configuration error to fix. So is STS's or
    /// KMS's refusal (an assumed role, a decryption key).
    private func logRefusedCredentials(_ error: WebImageError) {
        if let refusal = error.underlying as? S3StoreError, refusal.isAuthorizationFailure {
            logger.warning("the S3 source store refused the credentials", metadata: ["error": "\(refusal)"])
        } else if let refusal = error.underlying as? AWSServiceError, refusal.status == 401 || refusal.status == 403 {
            logger.warning("an AWS service refused the S3 source's credentials", metadata: ["error": "\(refusal)"])
        }
    }

    /// The most downloads at once: one per processing slot and queue place (each download holds one).
    static func downloadLimit(_ limits: ServerLimits) -> Int {
        let (sum, overflow) = max(1, limits.processingSlots).addingReportingOverflow(max(0, limits.processingQueue))
        return overflow ? .max : sum
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

    /// The origin statuses imgproxy takes an image from: 200 and 206 (others are errors; a 2xx or 3xx that is not a
    /// redirect answers 404). A fetch without validators expects no 304 (``conditionalStatuses`` takes one).
    static let imgproxyStatuses = ImageResponseValidator { response throws(WebImageError) in
        guard let status = response.httpStatus, status != 200, status != 206 else { return }
        throw WebImageError(.badStatus, "HTTP status \(status)", url: response.url, httpStatus: status)
    }

    /// imgproxy's status for a failed fetch, with the kind of origin failure for the metrics.
    static func map(_ error: WebImageError) -> ImageServerError {
        var mapped: ImageServerError
        var failure = OriginFailure.unreachable
        switch error.code {
        case .badStatus:
            let status = error.httpStatus ?? 404
            if (400..<500).contains(status) {
                mapped = ImageServerError(status: status, "source answered \(status)")
                failure = .status4xx
            } else if status >= 500 {
                mapped = ImageServerError(status: 502, "source answered \(status)")
                failure = .status5xx
            } else {
                mapped = ImageServerError(status: 404, "source answered \(status)")
                failure = .statusOther
            }
        case .timedOut:
            mapped = ImageServerError(status: 504, "source download timed out")
            failure = .timeout
        case .incompleteResponse:
            mapped = ImageServerError(status: 422, "source response is incomplete")
            failure = .incomplete
        case .bodyTooLarge, .tooLarge:
            mapped = ImageServerError(status: 422, "source file is too big")
            failure = .tooLarge
        case .forbiddenSource:
            mapped = ImageServerError(status: 404, "source address is not allowed")
            failure = .forbidden
        case .cancelled:
            mapped = ImageServerError(status: 503, "request cancelled")
            failure = .cancelled
        default: mapped = ImageServerError(status: 404, "source is unavailable")
        }
        mapped.originFailure = failure
        return mapped
    }
}
