/// One 16-bit RGBA colour with straight alpha.
public struct RGBA16: Hashable, Sendable {
    /// Red, 0–65535.
    public var red: UInt16
    /// Green, 0–65535.
    public var green: UInt16
    /// Blue, 0–65535.
    public var blue: UInt16
    /// Opacity, 0 (transparent) to 65535 (opaque), not premultiplied.
    public var alpha: UInt16

    /// Creates a colour from its four channels.
    public init(red: UInt16, green: UInt16, blue: UInt16, alpha: UInt16 = .max) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// `color` widened to 16 bits (each channel × 257).
    public init(_ color: RGBA) {
        self.init(
            red: UInt16(color.red) &* 257, green: UInt16(color.green) &* 257, blue: UInt16(color.blue) &* 257,
            alpha: UInt16(color.alpha) &* 257)
    }
}
