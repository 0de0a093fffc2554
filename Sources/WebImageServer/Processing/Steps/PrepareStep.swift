import WebImage

/// imgproxy's `prepare`: the geometry of the image as it now is, and the check that its work stays in the budget.
///
/// The geometry planned from the header stays when the decoder shrank the image on load (``ScaleOnLoadStep`` adapts
/// it), or when the pixels have the header's size; otherwise (a trimmed image, a header that lied) it is planned
/// again from the pixels. The size
/// is the one after ``RotateAndFlipStep``, which runs next.
struct PrepareStep: ProcessingStep {
    func apply(to context: inout ProcessingContext) throws(ImageServerError) {
        var size = context.image.size
        if context.options.rotate % 180 == 90 { size = PixelSize(width: size.height, height: size.width) }
        if !context.shrunkOnLoad && size != context.geometry.sourceSize {
            context.geometry = GeometryCalculator.geometry(
                source: size, options: context.options, maxResultDimension: context.limits.maxResultDimension)
        }
        try Self.checkWork(context.geometry, frames: context.image.frames.count, limits: context.limits)
    }

    /// Refuses geometry whose intermediate or result would exceed the pixel budget.
    static func checkWork(_ geometry: ResultGeometry, frames: Int, limits: ServerLimits) throws(ImageServerError) {
        let (animation, tooMany) = limits.maxAnimationFrameResolution.multipliedReportingOverflow(by: frames)
        let budget = max(
            limits.maxSourceResolution, limits.maxResultDimension * limits.maxResultDimension,
            frames > 1 ? (tooMany ? .max : animation) : 0)
        for size in [geometry.scaledSize, geometry.resultSize] {
            let (pixels, overflow) = size.width.multipliedReportingOverflow(by: size.height)
            let (total, overflow2) = pixels.multipliedReportingOverflow(by: frames)
            guard !overflow, !overflow2, total <= budget else {
                throw ImageServerError(status: 422, "the result would be too large")
            }
        }
    }
}
