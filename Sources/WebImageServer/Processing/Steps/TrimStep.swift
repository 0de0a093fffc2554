import WebImage

/// imgproxy's `trim`: the source's border of one colour removed, before any other step, on the decoded full-size
/// image (``LoadPlan`` does not shrink on load when trimming, and ``PrepareStep`` plans the geometry from the
/// trimmed size).
///
/// As imgproxy does: transparency is flattened over magenta first; the background is the `trim` colour, or the
/// stored image's top-left pixel (before the EXIF orientation, which the decoder has applied here); `equal_hor` and
/// `equal_ver` (also of the stored image) keep the smaller of the two cuts on both sides; a trim that would leave
/// nothing leaves the image as it is; animations are not trimmed. libvips needs at least 3×3 pixels: a smaller image
/// is left as it is.
struct TrimStep: ProcessingStep {
    /// The colour transparency is flattened over before the search (imgproxy's `vips_trim`).
    static let flattenColor = RGBA(red: 255, green: 0, blue: 255)

    func apply(to context: inout ProcessingContext) throws(ImageServerError) {
        guard let trim = context.options.trim, context.image.frames.count == 1 else { return }
        let pixels = context.image.pixels
        guard pixels.width >= 3, pixels.height >= 3 else { return }
        let opaque = pixels.isOpaque ? pixels : pixels.flattened(over: Self.flattenColor)
        let orientation = context.image.sourceOrientation
        let corner = Self.storedTopLeft(of: pixels.size, orientation: orientation)
        let finder = TrimFinder(threshold: trim.threshold, background: trim.color ?? opaque[corner.x, corner.y])
        guard let found = finder.box(in: opaque) else { return }
        let swaps = orientation.swapsDimensions
        let box = Self.equalized(
            found, in: pixels.size, horizontal: swaps ? trim.equalVertical : trim.equalHorizontal,
            vertical: swaps ? trim.equalHorizontal : trim.equalVertical)
        context.image = context.image.withFrames([
            ImageFrame(pixels: pixels.cropped(to: box), duration: context.image.frames[0].duration)
        ])
    }

    /// Where the stored image's top-left pixel is once `orientation` is applied to an image of `size` (upright).
    static func storedTopLeft(of size: PixelSize, orientation: ImageOrientation) -> (x: Int, y: Int) {
        let right = [2, 3, 6, 7].contains(orientation.rawValue)
        let bottom = [3, 4, 7, 8].contains(orientation.rawValue)
        return (right ? size.width - 1 : 0, bottom ? size.height - 1 : 0)
    }

    /// `box` widened so that the cuts on the left and right (with `horizontal`) and on the top and bottom (with
    /// `vertical`) are equal, the smaller of the two (imgproxy's `vips_trim`).
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
