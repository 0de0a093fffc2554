import WebImage

/// imgproxy's `trim`: the source's border of one colour removed by the library's ``Trim``, before any other step,
/// on the decoded full-size image (``LoadPlan`` does not shrink on load when trimming, and ``PrepareStep`` plans the
/// geometry from the trimmed size).
///
/// What the server adds to the library's trim: the background is the `trim` colour, or the stored image's top-left
/// pixel (before the EXIF orientation, which the decoder has applied here), and `equal_hor` and `equal_ver` are of
/// the stored image too, as in imgproxy.
struct TrimStep: ProcessingStep {
    func apply(to context: inout ProcessingContext) throws(ImageServerError) {
        guard let trim = context.options.trim else { return }
        let pixels = context.image.pixels
        let orientation = context.image.sourceOrientation
        let corner = Self.storedTopLeft(of: pixels.size, orientation: orientation)
        let cornerColor = pixels.isOpaque ? pixels[corner.x, corner.y] : Self.flattened(pixels[corner.x, corner.y])
        let swaps = orientation.swapsDimensions
        let library = Trim(
            threshold: trim.threshold, background: trim.color ?? cornerColor,
            equalHorizontal: swaps ? trim.equalVertical : trim.equalHorizontal,
            equalVertical: swaps ? trim.equalHorizontal : trim.equalVertical)
        // The library's `Trim.transform` cuts one frame only; the same box cuts its 16-bit pixels.
        guard context.image.frames.count == 1, let box = library.box(in: pixels) else { return }
        context.cut(.rect(box))
    }

    /// Where the stored image's top-left pixel is once `orientation` is applied to an image of `size` (upright).
    static func storedTopLeft(of size: PixelSize, orientation: ImageOrientation) -> (x: Int, y: Int) {
        let right = [2, 3, 6, 7].contains(orientation.rawValue)
        let bottom = [3, 4, 7, 8].contains(orientation.rawValue)
        return (right ? size.width - 1 : 0, bottom ? size.height - 1 : 0)
    }

    /// `color` over ``Trim/flattenColor``, as the search sees it.
    private static func flattened(_ color: RGBA) -> RGBA {
        PixelBuffer(width: 1, height: 1, filledWith: color).flattened(over: Trim.flattenColor)[0, 0]
    }
}
