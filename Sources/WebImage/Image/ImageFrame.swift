/// One frame of an image: a full canvas of pixels and how long it shows.
///
/// Animated formats are composited while decoding (disposal and blending applied), so every frame is a complete
/// picture the size of the image.
public struct ImageFrame: Sendable, Equatable {
    /// The frame's pixels.
    public let pixels: PixelBuffer
    /// The same pixels at 16 bits per sample, when a decoder kept the source's high bit depth
    /// (``DecodingOptions/keepsHighBitDepth``): ``pixels`` is then these rounded to 8 bits, and encoders that write
    /// 16-bit samples (PNG, TIFF) write these. A frame made from 8-bit pixels alone has none, so any transform that
    /// knows only ``pixels`` drops the high bit depth rather than leave it stale.
    public let deepPixels: PixelBuffer16?
    /// How long the frame shows, in seconds; 0 for a still image.
    public let duration: Double

    /// Creates a frame.
    public init(pixels: PixelBuffer, duration: Double = 0) {
        self.pixels = pixels
        self.deepPixels = nil
        self.duration = duration
    }

    /// A frame of 16-bit pixels, with their 8-bit rounding as ``pixels``.
    public init(deepPixels: PixelBuffer16, duration: Double = 0) {
        self.pixels = deepPixels.narrowed
        self.deepPixels = deepPixels
        self.duration = duration
    }

    /// A frame of 8-bit `pixels` and, when not `nil`, `deepPixels` of the same size that they are the rounding of.
    public init(pixels: PixelBuffer, deepPixels: PixelBuffer16?, duration: Double = 0) {
        precondition(deepPixels.map { $0.size == pixels.size } ?? true, "the 16-bit pixels differ in size")
        self.pixels = pixels
        self.deepPixels = deepPixels
        self.duration = duration
    }
}
