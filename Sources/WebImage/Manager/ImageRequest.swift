import Foundation

/// What to load: a source URL (`http(s)`, `file`, `data:`), switches and typed extras.
public struct ImageRequest: Sendable {
    /// The image's URL.
    public var url: URL
    /// Per-request switches.
    public var options: ImageOptions
    /// Per-request typed extras (transformer, thumbnail size, custom loader, …).
    public var context: ImageContext

    /// Creates a request.
    public init(url: URL, options: ImageOptions = [], context: ImageContext = ImageContext()) {
        self.url = url
        self.options = options
        self.context = context
    }

    /// A request for a URL string or a file path; `nil` when `source` is neither.
    public init?(source: String, options: ImageOptions = [], context: ImageContext = ImageContext()) {
        let url: URL?
        if source.hasPrefix("/") || source.hasPrefix(".") || !source.contains(":") {
            url = URL(fileURLWithPath: source)
        } else {
            url = URL(string: source)
        }
        guard let url, url.scheme != nil else { return nil }
        self.init(url: url, options: options, context: context)
    }

    /// The download priority the options ask for.
    public var priority: ImageLoadPriority {
        options.contains(.highPriority) ? .high : options.contains(.lowPriority) ? .low : .normal
    }

    /// The cache key of the original bytes: the cache key filter's answer, or the absolute URL.
    public var cacheKey: String {
        context[ImageContextKeys.CacheKeyFilter.self]?(url) ?? url.absoluteString
    }

    /// The cache key of the finished image: ``cacheKey`` plus whatever changes the decoded pixels (thumbnail size,
    /// first frame only, scaling down) and the transformer key, if any.
    public var transformedCacheKey: String {
        var key = cacheKey
        if let size = context[ImageContextKeys.ThumbnailSize.self] { key += "#thumbnail(\(size))" }
        if options.contains(.decodeFirstFrameOnly) { key += "#firstframe" }
        if options.contains(.scaleDownLargeImages) { key += "#scaledown" }
        if let transformer = context[ImageContextKeys.Transformer.self] { key += "#" + transformer.key }
        return key
    }
}
