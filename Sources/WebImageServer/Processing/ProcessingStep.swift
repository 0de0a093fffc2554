/// One named step of the processing pipeline (imgproxy's `processing.Step`): it reads the context it is given and
/// changes it, and nothing else. ``ProcessingPipeline`` lists the steps in the order they run; each can be run alone
/// on a context made for a test.
protocol ProcessingStep: Sendable {
    /// Applies the step; a step with nothing to do for these options leaves the context as it is.
    func apply(to context: inout ProcessingContext) throws(ImageServerError)
}
