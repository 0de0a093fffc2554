import Foundation

/// What to load, and everything that shapes the result: the source URL (`http(s)`, `file`, `data:`), switches,
/// the transformer, the thumbnail size, the priority, the loader's settings, the decoding limits, how the result is
/// cached; ``context`` holds the open-ended extras (a custom loader, cache or coders).
///
/// ```swift
/// let request = ImageRequest(url: url, transformer: Resize(to: PixelSize(width: 256, height: 256)))
/// ```
public struct ImageRequest: Sendable {
    /// The image's URL.
    public var url: URL
    /// Per-request switches.
    public var options: ImageOptions
    /// Applied after decoding; its key becomes part of the finished image's cache key.
    public var transformer: (any ImageTransforming)?
    /// Decode no larger than needed for this size (shrink-on-load), keeping the aspect ratio.
    public var thumbnailSize: PixelSize?
    /// Loader settings (timeout, headers, validator, size limit, …).
    public var loaderOptions: ImageLoaderOptions
    /// Decoding limits; `nil` uses the manager's ``ImageManager/Configuration/decodingLimits``.
    public var decodingLimits: DecodingLimits?
    /// Maps the URL to the cache key (e.g. to drop a changing query parameter); `nil` uses the absolute URL.
    public var cacheKeyFilter: (@Sendable (URL) -> String)?
    /// The cache tiers queried before loading and those the result is stored in.
    public var cachePolicy: ImageCachePolicy
    /// Open-ended extras: a custom loader, cache or coders, or keys of your own.
    public var context: ImageContext
    private var explicitPriority: ImageLoadPriority?

    /// Creates a request.
    public init(
        url: URL, options: ImageOptions = [], transformer: (any ImageTransforming)? = nil,
        thumbnailSize: PixelSize? = nil, priority: ImageLoadPriority? = nil,
        loaderOptions: ImageLoaderOptions = .default, decodingLimits: DecodingLimits? = nil,
        cacheKeyFilter: (@Sendable (URL) -> String)? = nil, cachePolicy: ImageCachePolicy = .default,
        context: ImageContext = ImageContext()
    ) {
        self.url = url
        self.options = options
        self.transformer = transformer
        self.thumbnailSize = thumbnailSize
        self.explicitPriority = priority
        self.loaderOptions = loaderOptions
        self.decodingLimits = decodingLimits
        self.cacheKeyFilter = cacheKeyFilter
        self.cachePolicy = cachePolicy
        self.context = context
    }

    /// The download priority: as set, else what the options ask for (``ImageOptions/highPriority``,
    /// ``ImageOptions/lowPriority``), else normal.
    public var priority: ImageLoadPriority {
        get {
            explicitPriority
                ?? (options.contains(.highPriority) ? .high : options.contains(.lowPriority) ? .low : .normal)
        }
        set { explicitPriority = newValue }
    }

    /// The cache key of the original bytes: the cache key filter's answer, or the absolute URL.
    public var cacheKey: String { cacheKeyFilter?(url) ?? url.absoluteString }

    /// The cache key of the finished image: ``cacheKey`` plus whatever changes the decoded pixels (thumbnail size,
    /// first frame only, scaling down) and the transformer key, if any.
    public var transformedCacheKey: String {
        var key = cacheKey
        if let thumbnailSize { key += "#thumbnail(\(thumbnailSize))" }
        if options.contains(.decodeFirstFrameOnly) { key += "#firstframe" }
        if options.contains(.scaleDownLargeImages) { key += "#scaledown" }
        if let transformer { key += "#" + transformer.key }
        return key
    }
}

/// Which cache tiers a request reads and writes.
public struct ImageCachePolicy: Sendable, Hashable {
    /// The tiers queried before loading; default all.
    public var query: ImageCacheType
    /// The tiers the result is stored in; default all (``ImageOptions/cacheMemoryOnly`` narrows it to memory).
    public var store: ImageCacheType

    /// Creates a policy.
    public init(query: ImageCacheType = .all, store: ImageCacheType = .all) {
        self.query = query
        self.store = store
    }

    /// Query and store every tier.
    public static let `default` = ImageCachePolicy()
}
