/// imgproxy's `crop`: the `crop` option, in source pixels, before scaling.
struct CropStep: ProcessingStep {
    func apply(to context: inout ProcessingContext) throws(ImageServerError) {
        context.cut(context.geometry.crop)
    }
}
