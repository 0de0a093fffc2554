/// Per-request switches, mirroring SDWebImage's `SDWebImageOptions` where they make sense off Apple platforms.
public struct ImageOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    /// Options from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Load a URL even if it failed permanently before (it is otherwise refused with ``WebImageError/Code/failedURL``).
    public static let retryFailed = ImageOptions(rawValue: 1 << 0)
    /// Download at low priority (after waiting normal and high ones).
    public static let lowPriority = ImageOptions(rawValue: 1 << 1)
    /// Download at high priority (before waiting normal and low ones).
    public static let highPriority = ImageOptions(rawValue: 1 << 2)
    /// Deliver previews decoded from the bytes received so far, then the final image.
    public static let progressiveLoad = ImageOptions(rawValue: 1 << 3)
    /// Revalidate a disk-cached image with the server (ETag / Last-Modified); a 304 keeps the cached bytes.
    public static let refreshCached = ImageOptions(rawValue: 1 << 4)
    /// Store in the memory cache only, not on disk.
    public static let cacheMemoryOnly = ImageOptions(rawValue: 1 << 5)
    /// Never load: answer from the caches or fail with ``WebImageError/Code/notCached``.
    public static let fromCacheOnly = ImageOptions(rawValue: 1 << 6)
    /// Skip the cache lookup and load (the result is still stored).
    public static let fromLoaderOnly = ImageOptions(rawValue: 1 << 7)
    /// Deliver the bytes without decoding them (``ImageResult/image`` is `nil`; nothing is stored in memory).
    public static let avoidDecode = ImageOptions(rawValue: 1 << 8)
    /// Decode large images no larger than ``ImageManager/Configuration/scaleDownLimit`` pixels.
    public static let scaleDownLargeImages = ImageOptions(rawValue: 1 << 9)
    /// Decode only the first frame of animations.
    public static let decodeFirstFrameOnly = ImageOptions(rawValue: 1 << 10)
    /// Look in the disk cache in the caller's task, before joining (or starting) the shared run that loads the
    /// image: a disk hit is answered without a run, at the cost of a second disk lookup if it misses.
    public static let queryDiskDataSync = ImageOptions(rawValue: 1 << 11)
    /// Deliver only after the disk cache has stored the result. By default the result is delivered once it is in
    /// memory and the disk write finishes in the background (``ImageManager/waitForPendingStores()``).
    public static let waitStoreCache = ImageOptions(rawValue: 1 << 14)
    /// For targets: show the placeholder only after the load fails or takes long, not at once.
    public static let delayPlaceholder = ImageOptions(rawValue: 1 << 12)
    /// For targets: deliver the image to the completion only; do not set it on the target.
    public static let avoidAutoSetImage = ImageOptions(rawValue: 1 << 13)
}
