/// imgproxy's `extendAspectRatio`: the image placed on a canvas of the requested aspect ratio (the
/// `extend_aspect_ratio` option), by its gravity.
struct ExtendAspectRatioStep: ProcessingStep {
    func apply(to context: inout ProcessingContext) throws(ImageServerError) {
        try context.embed(on: context.geometry.aspectRatioCanvas)
    }
}
