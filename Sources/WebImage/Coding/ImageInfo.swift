/// What an image's header says, read without decoding its pixels.
public struct ImageInfo: Sendable, Hashable {
    /// The format.
    public var format: ImageFormat
    /// Pixel size as stored (before orientation).
    public var width: Int
    /// The height as stored (before orientation).
    public var height: Int
    /// Frame count, where the header tells it without decoding; 1 for stills.
    public var frameCount: Int
    /// The EXIF orientation the file declares.
    public var orientation: ImageOrientation
    /// Whether the format may carry transparency here.
    public var hasAlpha: Bool

    /// Creates header information.
    public init(
        format: ImageFormat, width: Int, height: Int, frameCount: Int = 1, orientation: ImageOrientation = .up,
        hasAlpha: Bool = true
    ) {
        self.format = format
        self.width = width
        self.height = height
        self.frameCount = frameCount
        self.orientation = orientation
        self.hasAlpha = hasAlpha
    }

    /// The size once the orientation is applied.
    public var uprightSize: PixelSize {
        orientation.swapsDimensions
            ? PixelSize(width: height, height: width) : PixelSize(width: width, height: height)
    }
}
