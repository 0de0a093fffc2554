import WebImage

/// Every size, scale and crop of one request, decided before any pixel moves (imgproxy's `prepare.go`).
///
/// The source size is the upright size after the EXIF orientation (when auto-rotating) and the `rotate` option,
/// because the server rotates first; imgproxy crops first with a rotated gravity, which gives the same pixels.
public struct ResultGeometry: Sendable, Hashable {
    /// A crop: a fixed rectangle, or a size whose place the smart-crop step finds.
    public enum CropStep: Sendable, Hashable {
        /// Keep this rectangle.
        case rect(PixelRect)
        /// Keep a rectangle of this size where the picture has the most detail.
        case smart(PixelSize)

        /// The size the crop keeps.
        public var size: PixelSize {
            switch self {
            case .rect(let rect): rect.size
            case .smart(let size): size
            }
        }
    }

    /// A canvas (extend, aspect ratio, padding) and where the image sits on it.
    public struct Canvas: Sendable, Hashable {
        /// The canvas size: the result size.
        public var size: PixelSize
        /// Where the image's left edge sits on the canvas.
        public var x: Int
        /// Where the image's top edge sits on the canvas.
        public var y: Int
    }

    /// The upright source size.
    public var sourceSize: PixelSize
    /// The crop before scaling (the `crop` option), in source pixels (in the decoded image's pixels when the source
    /// was shrunk on load).
    public var crop: CropStep?
    /// The size the (cropped) source is scaled to.
    public var scaledSize: PixelSize
    /// The crop after scaling (`fill`, `fill-down`, `force` to the requested size), in scaled pixels.
    public var resultCrop: CropStep?
    /// The extended canvas (`extend`), when the image is smaller than the requested size.
    public var canvas: Canvas?
    /// The canvas of the requested aspect ratio (`extend_aspect_ratio`), when the image does not have it.
    public var aspectRatioCanvas: Canvas?
    /// The padded canvas (`padding`, scaled by the DPR).
    public var paddingCanvas: Canvas?
    /// The device pixel ratio in effect after the no-enlarge and result-dimension rules.
    public var dprScale: Double
    /// How much the source may be shrunk on load (imgproxy's preshrink, from the full-size plan): 1 or more, 1 when
    /// the result needs every source pixel.
    public var preshrink: Double

    /// The size of the result.
    public var resultSize: PixelSize {
        if let canvas = paddingCanvas ?? aspectRatioCanvas ?? canvas { return canvas.size }
        return resultCrop?.size ?? scaledSize
    }
}
