/// Removes a border of one colour from a still image, as libvips's `vips_trim` does for imgproxy's `trim`.
///
/// Transparency is flattened over magenta before the search; the border colour is ``background``, or the top-left
/// pixel when `nil`; a pixel belongs to the picture when a channel of its 3×3 median differs from the border's by
/// more than ``threshold``. ``equalHorizontal`` and ``equalVertical`` keep the smaller of the two cuts on both sides.
/// A trim that would leave nothing, an animation and an image under 3×3 pixels are left as they are.
public struct Trim: ImageTransforming {
    /// The colour transparency is flattened over before the search.
    public static let flattenColor = RGBA(red: 255, green: 0, blue: 255)

    /// How far (0–255 a channel) a colour may be from the border's and still count as border.
    public let threshold: Double
    /// The border's colour; `nil` takes the top-left pixel's.
    public let background: RGBA?
    /// Whether the left and right cuts are made equal (the smaller of the two).
    public let equalHorizontal: Bool
    /// Whether the top and bottom cuts are made equal (the smaller of the two).
    public let equalVertical: Bool

    /// Trims the border within `threshold` of `background` (or of the top-left pixel).
    public init(threshold: Double, background: RGBA? = nil, equalHorizontal: Bool = false, equalVertical: Bool = false)
    {
        self.threshold = threshold
        self.background = background
        self.equalHorizontal = equalHorizontal
        self.equalVertical = equalVertical
    }

    public var key: String {
        let color = background.map(\.keyDescription) ?? "corner"
        return "trim(\(threshold.keyDescription),\(color),\(equalHorizontal),\(equalVertical))"
    }

    public func transform(_ image: Image) throws(WebImageError) -> Image {
        guard image.frames.count == 1, let box = box(in: image.pixels) else { return image }
        return image.withFrames([ImageFrame(pixels: image.pixels.cropped(to: box), duration: image.frames[0].duration)])
    }

    /// The part of `pixels` that is kept; `nil` when nothing is cut or everything would be.
    public func box(in pixels: PixelBuffer) -> PixelRect? {
        guard pixels.width >= 3, pixels.height >= 3, threshold.isFinite else { return nil }
        let opaque = pixels.isOpaque ? pixels : pixels.flattened(over: Self.flattenColor)
        let finder = TrimFinder(threshold: threshold, background: background ?? opaque[0, 0])
        guard let found = finder.box(in: opaque) else { return nil }
        let box = Self.equalized(found, in: pixels.size, horizontal: equalHorizontal, vertical: equalVertical)
        return box == PixelRect(x: 0, y: 0, width: pixels.width, height: pixels.height) ? nil : box
    }

    /// `box` widened so that the cuts on the left and right (with `horizontal`) and on the top and bottom (with
    /// `vertical`) are equal, the smaller of the two.
    static func equalized(_ box: PixelRect, in size: PixelSize, horizontal: Bool, vertical: Bool) -> PixelRect {
        var box = box
        if horizontal {
            let right = size.width - box.x - box.width
            box.width += abs(right - box.x)
            box.x = min(box.x, right)
        }
        if vertical {
            let bottom = size.height - box.y - box.height
            box.height += abs(bottom - box.y)
            box.y = min(box.y, bottom)
        }
        return box
    }
}
