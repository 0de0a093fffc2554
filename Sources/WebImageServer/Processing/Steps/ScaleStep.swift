import WebImage

/// imgproxy's `scale`: every frame resampled (Lanczos 3) to the geometry's scaled size.
struct ScaleStep: ProcessingStep {
    func apply(to context: inout ProcessingContext) throws(ImageServerError) {
        let size = context.geometry.scaledSize
        let opaque = context.image.isOpaque
        let resampler = Resampler(filter: .lanczos3)
        context.image = context.image.withFrames(
            context.image.frames.map {
                ImageFrame(pixels: resampler.resample($0.pixels, to: size, opaque: opaque), duration: $0.duration)
            })
    }
}
