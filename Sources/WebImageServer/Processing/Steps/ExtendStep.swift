/// imgproxy's `extend`: the image placed on a canvas of the requested size (the `extend` option), by its gravity.
struct ExtendStep: ProcessingStep {
    func apply(to context: inout ProcessingContext) throws(ImageServerError) {
        try context.embed(on: context.geometry.canvas)
    }
}
