/// Mirrors every frame horizontally (left-right) or vertically (top-bottom).
public struct Flip: PixelTransforming {
    /// Mirror left and right.
    public let horizontal: Bool
    /// Mirror top and bottom.
    public let vertical: Bool

    /// Creates a flip; at least one direction should be set.
    public init(horizontal: Bool = true, vertical: Bool = false) {
        self.horizontal = horizontal
        self.vertical = vertical
    }

    public var key: String { "flip(\(horizontal ? "h" : "")\(vertical ? "v" : ""))" }

    public func transform(_ pixels: PixelBuffer) throws(WebImageError) -> PixelBuffer {
        switch (horizontal, vertical) {
        case (true, true): pixels.oriented(from: .down)
        case (true, false): pixels.oriented(from: .upMirrored)
        case (false, true): pixels.oriented(from: .downMirrored)
        case (false, false): pixels
        }
    }
}
