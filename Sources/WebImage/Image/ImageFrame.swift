/// One frame of an image: a full canvas of pixels and how long it shows.
///
/// Animated formats are composited while decoding (disposal and blending applied), so every frame is a complete
/// picture the size of the image.
public struct ImageFrame: Sendable, Equatable {
    /// The frame's pixels.
    public let pixels: PixelBuffer
    /// How long the frame shows, in seconds; 0 for a still image.
    public let duration: Double

    /// Creates a frame.
    public init(pixels: PixelBuffer, duration: Double = 0) {
        self.pixels = pixels
        self.duration = duration
    }
}
