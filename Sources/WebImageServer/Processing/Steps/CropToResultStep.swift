/// imgproxy's `cropToResult`: the cut to the requested size after scaling (`fill`, `fill-down`, `force`), placed by
/// `gravity`.
struct CropToResultStep: ProcessingStep {
    func apply(to context: inout ProcessingContext) throws(ImageServerError) {
        context.cut(context.geometry.resultCrop)
    }
}
