/// imgproxy's `padding`: the `padding` option's sides, scaled by the DPR, added around the image.
struct PaddingStep: ProcessingStep {
    func apply(to context: inout ProcessingContext) throws(ImageServerError) {
        try context.embed(on: context.geometry.paddingCanvas)
    }
}
