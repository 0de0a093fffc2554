/// How to decode one image.
public struct DecodingOptions: Sendable, Hashable {
    /// Decode no larger than needed to cover this size (a thumbnail).
    ///
    /// Decoders that can scale while decoding (JPEG's DCT scaling, WebP's decoder scaling) pick the smallest scale
    /// whose result still covers `targetSize` in both dimensions, keeping the aspect ratio; the result is then at
    /// least `targetSize` and is resampled to it by a transformer. `nil` decodes at full size.
    public var targetSize: PixelSize?
    /// Decode only the first frame of an animation.
    public var firstFrameOnly: Bool
    /// Apply the EXIF orientation so that pixels come out upright. Default: `true`.
    public var appliesOrientation: Bool
    /// Size limits checked from the header before allocating.
    public var limits: DecodingLimits

    /// Creates options; by default a full-size decode of every frame, upright, with the default limits.
    public init(
        targetSize: PixelSize? = nil, firstFrameOnly: Bool = false, appliesOrientation: Bool = true,
        limits: DecodingLimits = .default
    ) {
        self.targetSize = targetSize
        self.firstFrameOnly = firstFrameOnly
        self.appliesOrientation = appliesOrientation
        self.limits = limits
    }

    /// Full-size decode of every frame with the default limits.
    public static let `default` = DecodingOptions()
}
