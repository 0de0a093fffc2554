import Foundation

/// The limits the server checks before the work they guard.
public struct ServerLimits: Sendable, Hashable {
    /// The largest source download in bytes. Default 50 MiB (imgproxy has none by default).
    public var maxSourceFileSize = 50 * 1024 * 1024
    /// The most source pixels, width × height × frames, read from the header. Default 50 megapixels.
    public var maxSourceResolution = 50_000_000
    /// The most animation frames kept; later frames are dropped, as imgproxy does. Default 100.
    public var maxAnimationFrames = 100
    /// The most pixels of one animation frame (imgproxy's `IMGPROXY_MAX_ANIMATION_FRAME_RESOLUTION`): above 0, an
    /// animation is checked frame by frame against it instead of as a whole against ``maxSourceResolution``.
    /// Default 0, as in imgproxy.
    public var maxAnimationFrameResolution = 0
    /// The longest side of a result; larger results are scaled down to it, as imgproxy's `max_result_dimension`.
    /// Default 8192; 0 disables the limit, as in imgproxy.
    public var maxResultDimension = 8192
    /// The most redirects followed to a source; one more fails the request (404). Default 10, as imgproxy's
    /// `IMGPROXY_MAX_REDIRECTS`; 0 follows none.
    public var maxRedirects = 10
    /// How long a source download may take. Default 10 s.
    public var downloadTimeout: Duration = .seconds(10)
    /// How long a whole request may take before the server answers 503. Default 20 s.
    public var requestTimeout: Duration = .seconds(20)

    /// How many images are processed at once. Default: the number of cores.
    public var processingSlots = ProcessInfo.processInfo.activeProcessorCount
    /// How many more may wait for a slot; beyond that the server answers 503 at once. Default 200.
    public var processingQueue = 200
    /// How long a request may wait for a slot before the server answers 503. Default 10 s.
    public var queueTimeout: Duration = .seconds(10)

    /// The defaults.
    public init() {}

    /// The longest a timeout may be: a day.
    public static let longestTimeout: Duration = .seconds(86_400)

    /// Throws for the first limit outside its range.
    public func validate() throws(ImageServerConfigurationError) {
        typealias Check = ImageServerConfigurationError
        try Check.check(maxSourceFileSize, in: 1...Int.max, "max-src-file-size", "must be positive")
        try Check.check(
            maxSourceResolution, in: 1...10_000_000_000, "max-src-resolution",
            "must be between 0 and 10000 megapixels")
        try Check.check(maxAnimationFrames, in: 1...Int.max, "max-animation-frames", "must be positive")
        try Check.check(
            maxAnimationFrameResolution, in: 0...10_000_000_000, "max-animation-frame-resolution",
            "must be between 0 and 10000 megapixels")
        try Check.check(maxResultDimension, in: 0...65_535, "max-result-dimension", "must be between 0 and 65535")
        try Check.check(maxRedirects, in: 0...100, "max-redirects", "must be between 0 and 100")
        for (timeout, setting) in [
            (downloadTimeout, "download-timeout"), (requestTimeout, "timeout"), (queueTimeout, "queue-timeout"),
        ] {
            guard timeout > .zero, timeout <= Self.longestTimeout else {
                throw Check(setting, "must be between 0 and 86400 seconds")
            }
        }
        try Check.check(processingSlots, in: 1...1024, "workers", "must be between 1 and 1024")
        try Check.check(processingQueue, in: 0...1_000_000, "queue-size", "must be between 0 and 1000000")
    }
}
