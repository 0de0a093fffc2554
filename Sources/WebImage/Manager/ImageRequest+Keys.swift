import Foundation

/// The identity of a request's original bytes: the source and how it is loaded.
struct OriginalDataKey: Hashable, Sendable {
    var url: URL
    /// The request's own loader, `nil` for the manager's.
    var loader: PartIdentity?
    var loaderOptions: LoaderOptionsKey
}

/// The identity of a request's decoded image: its bytes and how they are decoded.
struct DecodedImageKey: Hashable, Sendable {
    var data: OriginalDataKey
    /// The request's own coders, `nil` for the manager's.
    var coders: PartIdentity?
    /// The request's own limits, `nil` for the manager's.
    var limits: DecodingLimits?
    var thumbnailSize: PixelSize?
    var firstFrameOnly: Bool
    var scaleDown: Bool
}

/// The identity of a request's finished image: its decoded image and the transformer applied to it.
struct TransformedImageKey: Hashable, Sendable {
    var decoded: DecodedImageKey
    /// The transformer's ``ImageTransforming/key``.
    var transformer: String?
}

/// What the loader sends and how it judges the answer, as far as it changes the bytes delivered.
struct LoaderOptionsKey: Hashable, Sendable {
    /// The HTTP request after the request modifier (`User-Agent`, conditional headers, authorization).
    var request: ImageHTTPRequest?
    /// Set when the request modifier threw: such a request never shares work.
    var unshared: IdentityToken?
    var timeout: Duration
    var maxBodySize: Int
    var redirectLimit: Int
    var allowsInvalidCertificates: Bool
    var validator: IdentityToken
    var decryptor: IdentityToken?

    init(_ options: ImageLoaderOptions, url: URL) {
        var request = options.baseRequest(for: url)
        do throws(WebImageError) {
            try options.requestModifier.modify(&request)
            self.request = request
        } catch {
            unshared = IdentityToken()
        }
        timeout = options.timeout
        maxBodySize = options.maxBodySize
        redirectLimit = options.redirectLimit
        allowsInvalidCertificates = options.allowsInvalidCertificates
        validator = options.responseValidator.identity
        decryptor = options.decryptor?.identity
    }
}

extension ImageManager {
    /// What makes two requests one run: the finished image they produce, the cache entries they read and write,
    /// and the switches that change how the run goes.
    struct RunKey: Hashable, Sendable {
        var image: TransformedImageKey
        var cacheKey: String
        /// The request's own cache, `nil` for the manager's.
        var cache: PartIdentity?
        var cachePolicy: ImageCachePolicy
        /// The options that change what is produced or where it is looked for.
        var options: ImageOptions
    }

    /// The run key of `request`.
    static func runKey(for request: ImageRequest) -> RunKey {
        let shaping: ImageOptions = [
            .fromCacheOnly, .fromLoaderOnly, .refreshCached, .avoidDecode, .decodeFirstFrameOnly, .scaleDownLargeImages,
            .progressiveLoad, .cacheMemoryOnly, .waitStoreCache,
        ]
        let data = OriginalDataKey(
            url: request.url, loader: request.context[ImageContextKeys.Loader.self].map { PartIdentity($0) },
            loaderOptions: LoaderOptionsKey(request.loaderOptions, url: request.url))
        let decoded = DecodedImageKey(
            data: data, coders: request.context[ImageContextKeys.Coders.self].map { PartIdentity($0) },
            limits: request.decodingLimits, thumbnailSize: request.thumbnailSize,
            firstFrameOnly: request.options.contains(.decodeFirstFrameOnly),
            scaleDown: request.options.contains(.scaleDownLargeImages))
        return RunKey(
            image: TransformedImageKey(decoded: decoded, transformer: request.transformer?.key),
            cacheKey: request.cacheKey, cache: request.context[ImageContextKeys.Cache.self].map { PartIdentity($0) },
            cachePolicy: request.cachePolicy, options: request.options.intersection(shaping))
    }
}
