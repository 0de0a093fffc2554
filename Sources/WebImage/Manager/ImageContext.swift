import Foundation

/// A typed key of ``ImageContext``: an open-ended extra setting of one request.
///
/// Declare a key as a type and add a static accessor on ``ImageContext`` for it:
/// ```swift
/// enum WatermarkKey: ImageContextKey { typealias Value = String }
/// ```
public protocol ImageContextKey {
    /// The type of the value stored under this key.
    associatedtype Value: Sendable
}

/// Typed extras of one request, SDWebImage's context dictionary without `Any`: each key has its value type.
public struct ImageContext: Sendable {
    private var values: [ObjectIdentifier: any Sendable] = [:]

    /// An empty context.
    public init() {}

    /// The value stored under `key`.
    public subscript<Key: ImageContextKey>(_ key: Key.Type) -> Key.Value? {
        get { values[ObjectIdentifier(key)] as? Key.Value }
        set { values[ObjectIdentifier(key)] = newValue }
    }

    /// A copy with `value` stored under `key`.
    public func with<Key: ImageContextKey>(_ key: Key.Type, _ value: Key.Value) -> ImageContext {
        var copy = self
        copy[key] = value
        return copy
    }
}

/// The built-in context keys.
public enum ImageContextKeys {
    /// A transformer applied after decoding; its key becomes part of the cache key.
    public enum Transformer: ImageContextKey { public typealias Value = any ImageTransforming }
    /// Maps a URL to the cache key (e.g. to drop a changing query parameter).
    public enum CacheKeyFilter: ImageContextKey { public typealias Value = @Sendable (URL) -> String }
    /// Decode no larger than needed for this size (shrink-on-load), keeping the aspect ratio.
    public enum ThumbnailSize: ImageContextKey { public typealias Value = PixelSize }
    /// A loader to use instead of the manager's.
    public enum Loader: ImageContextKey { public typealias Value = any ImageLoading }
    /// A cache to use instead of the manager's.
    public enum Cache: ImageContextKey { public typealias Value = any ImageCaching }
    /// Coders to use instead of the manager's.
    public enum Coders: ImageContextKey { public typealias Value = any ImageCoding }
    /// The cache tiers the result is stored in (default: all).
    public enum StoreCacheType: ImageContextKey { public typealias Value = ImageCacheType }
    /// The cache tiers queried before loading (default: all).
    public enum QueryCacheType: ImageContextKey { public typealias Value = ImageCacheType }
    /// Loader settings (timeout, headers, validator, size limit, …) for this request.
    public enum LoaderOptions: ImageContextKey { public typealias Value = ImageLoaderOptions }
    /// Decoding limits for this request.
    public enum DecodingLimits: ImageContextKey { public typealias Value = WebImage.DecodingLimits }
}
