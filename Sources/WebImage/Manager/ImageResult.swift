import Foundation

/// A finished load: the image, where it came from, and how long each stage took.
public struct ImageResult: Sendable {
    /// The decoded (and transformed) image; `nil` only with ``ImageOptions/avoidDecode``.
    public var image: Image?
    /// The encoded bytes, when they were at hand (loaded or read from disk).
    public var data: Data?
    /// Where the image came from: ``ImageCacheType/none`` (loaded), `.memory` or `.disk`.
    public var cacheType: ImageCacheType
    /// The request's URL.
    public var url: URL
    /// Time spent in each stage.
    public var metrics: ImageMetrics
    /// Where the bytes came from: finer than ``cacheType``, it tells a loader's shared cache from the origin.
    public var dataSource: ImageDataSource
    /// The source's `ETag` and `Last-Modified`, when the bytes came with them (a memory hit has none).
    public var validators = ImageValidators()
}

/// How long each stage of one request took, in seconds; 0 for stages that did not run.
public struct ImageMetrics: Sendable, Hashable, Encodable {
    /// Looking in the caches.
    public var cacheQuery: Double = 0
    /// Loading the bytes (download, file read).
    public var load: Double = 0
    /// Decoding.
    public var decode: Double = 0
    /// Running the transformer.
    public var transform: Double = 0
    /// Storing in the caches, when awaited (``ImageOptions/waitStoreCache``).
    public var store: Double = 0
    /// From the request to the result.
    public var total: Double = 0

    /// No stage timed yet.
    public init() {}
}
