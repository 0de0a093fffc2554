/// How to encode one image.
public struct EncodingOptions: Sendable, Hashable {
    /// Quality for lossy formats, 0 to 100. Default: 80.
    public var quality: Int
    /// Encode WebP losslessly. Default: `false`.
    public var lossless: Bool
    /// Encode only the first frame, even where the format can animate.
    public var firstFrameOnly: Bool

    /// Creates options.
    public init(quality: Int = 80, lossless: Bool = false, firstFrameOnly: Bool = false) {
        self.quality = quality
        self.lossless = lossless
        self.firstFrameOnly = firstFrameOnly
    }

    /// Quality 80, lossy where the format allows, every frame.
    public static let `default` = EncodingOptions()
}
