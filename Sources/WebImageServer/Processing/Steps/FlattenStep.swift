import WebImage

/// imgproxy's `flatten`: transparency composited over the `background` option when it is set, and over white for a
/// JPEG result, which has no alpha.
struct FlattenStep: ProcessingStep {
    func apply(to context: inout ProcessingContext) throws(ImageServerError) {
        let background = context.options.background
        guard background != nil || (context.format == .jpeg && !context.image.isOpaque) else { return }
        let back = background ?? .white
        context.image = context.image.withFrames(
            context.image.frames.map {
                ImageFrame(
                    pixels: $0.pixels.flattened(over: back), deepPixels: $0.deepPixels?.flattened(over: back),
                    duration: $0.duration)
            })
    }
}
