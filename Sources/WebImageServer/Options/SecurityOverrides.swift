/// imgproxy's security options in a URL (`max_src_resolution`, `max_src_file_size`, `max_animation_frames`,
/// `max_animation_frame_resolution`, `max_result_dimension`): each, when set, replaces the server's limit for the
/// request. The parser refuses them (403) unless ``OptionRules/allowsSecurityOptions`` is set.
public struct SecurityOverrides: Sendable, Hashable {
    /// The most source megapixels, width × height × frames.
    public var maxSourceResolution: Double?
    /// The largest source file in bytes; 0 or less = no limit, as in imgproxy.
    public var maxSourceFileSize: Int?
    /// The most animation frames kept, at least 1.
    public var maxAnimationFrames: Int?
    /// The most megapixels of one animation frame; when set above 0, an animation is checked frame by frame
    /// instead of as a whole against ``maxSourceResolution``.
    public var maxAnimationFrameResolution: Double?
    /// The longest side of a result; 0 or less = no limit, as in imgproxy.
    public var maxResultDimension: Int?

    /// None: the server's limits.
    public init() {}

    /// `limits` with these overrides applied; every value is clamped into what the limit can hold.
    public func applied(to limits: ServerLimits) -> ServerLimits {
        var result = limits
        if let megapixels = maxSourceResolution { result.maxSourceResolution = Self.pixels(megapixels) }
        if let bytes = maxSourceFileSize { result.maxSourceFileSize = bytes <= 0 ? .max : bytes }
        if let frames = maxAnimationFrames { result.maxAnimationFrames = max(1, frames) }
        if let megapixels = maxAnimationFrameResolution {
            result.maxAnimationFrameResolution = Self.pixels(megapixels)
        }
        if let side = maxResultDimension { result.maxResultDimension = side <= 0 ? 0 : min(side, 65_535) }
        return result
    }

    /// `megapixels` as pixels, clamped to 0 through 10 000 megapixels (the server's largest resolution limit).
    static func pixels(_ megapixels: Double) -> Int {
        guard megapixels.isFinite || megapixels > 0 else { return 0 }
        return Int(min(max(megapixels, 0), 10_000) * 1_000_000)
    }
}
