import WebImage

/// imgproxy's `scaleOnLoad`, after the decode: ``LoadPlan`` asked the decoder for a smaller image (a JPEG's DCT
/// shrink, a WebP's scaled decode, a HEIF thumbnail); the geometry is planned again for the size it gave, with the
/// crop and the scales made for it as imgproxy makes them (`ScaleOnLoad`). A vector was rendered at the planned
/// scaled size (or at its own size when cropped), so its planned geometry stays.
struct ScaleOnLoadStep: ProcessingStep {
    func apply(to context: inout ProcessingContext) throws(ImageServerError) {
        guard context.shrunkOnLoad, context.image.format != .svg else { return }
        var loaded = context.image.size
        if context.options.rotate % 180 == 90 { loaded = PixelSize(width: loaded.height, height: loaded.width) }
        guard loaded != context.geometry.sourceSize else { return }
        context.geometry = GeometryCalculator.geometry(
            source: context.geometry.sourceSize, options: context.options,
            maxResultDimension: context.limits.maxResultDimension, loaded: loaded)
    }
}
