import WebImage

/// imgproxy's `scale`: every frame resampled (Lanczos 3) to the geometry's scaled size, nothing done when the image
/// already has it; in linear light with `--use-linear-colorspace` (imgproxy's `IMGPROXY_USE_LINEAR_COLORSPACE`).
struct ScaleStep: ProcessingStep {
    func apply(to context: inout ProcessingContext) throws(ImageServerError) {
        let size = context.geometry.scaledSize
        guard size != context.image.size else { return }
        let opaque = context.image.isOpaque
        let resampler = Resampler(filter: .lanczos3, linearLight: context.linearLight)
        context.image = context.image.withFrames(
            context.image.frames.map {
                ImageFrame(
                    pixels: resampler.resample($0.pixels, to: size, opaque: opaque),
                    deepPixels: $0.deepPixels.map { resampler.resample($0, to: size, opaque: $0.isOpaque) },
                    duration: $0.duration)
            })
    }
}
