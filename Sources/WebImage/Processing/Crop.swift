/// Crops every frame: to a rectangle, or to a size placed by a ``Gravity``.
public struct Crop: PixelTransforming {
    /// The rectangle to keep, when cropping to a rectangle.
    public let rect: PixelRect?
    /// The size to keep, when cropping by gravity.
    public let size: PixelSize?
    /// Where the kept rectangle sits in the image.
    public let gravity: Gravity

    /// Keeps `rect`; the rectangle must lie inside the image.
    public init(to rect: PixelRect) {
        self.rect = rect
        size = nil
        gravity = .center
    }

    /// Keeps a `size` region placed by `gravity`; a size larger than the image keeps the whole of that side.
    public init(size: PixelSize, gravity: Gravity = .center) {
        rect = nil
        self.size = size
        self.gravity = gravity
    }

    public var key: String {
        if let rect { return "crop(\(rect))" }
        return "crop(\(size ?? PixelSize(width: 0, height: 0)),\(gravity))"
    }

    public func transform(_ pixels: PixelBuffer) throws(WebImageError) -> PixelBuffer {
        if let rect {
            guard rect.width > 0, rect.height > 0, rect.x >= 0, rect.y >= 0, rect.width <= pixels.width - rect.x,
                rect.height <= pixels.height - rect.y
            else {
                throw WebImageError(.invalidArgument, "crop rectangle \(rect) lies outside the \(pixels.size) image")
            }
            return pixels.cropped(to: rect)
        }
        guard let size, size.width > 0, size.height > 0 else {
            throw WebImageError(.invalidArgument, "crop size must be positive")
        }
        let kept = PixelSize(width: min(size.width, pixels.width), height: min(size.height, pixels.height))
        return pixels.cropped(to: gravity.place(kept, in: pixels.size))
    }
}
