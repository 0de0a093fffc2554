import WebImage

/// imgproxy's `rotateAndFlip`: the `rotate` option, then the `flip` (which changes no size).
///
/// It runs before the crop here, on the full image: the geometry is computed for the rotated size (see
/// ``ProcessingPipeline``).
struct RotateAndFlipStep: ProcessingStep {
    func apply(to context: inout ProcessingContext) throws(ImageServerError) {
        let options = context.options
        if options.rotate != 0 {
            let rotate = Rotate(degrees: Double(options.rotate))
            let image = context.image
            context.image = try ImageProcessor.library { () throws(WebImageError) in try rotate.transform(image) }
        }
        if options.flipHorizontal || options.flipVertical {
            let flip = Flip(horizontal: options.flipHorizontal, vertical: options.flipVertical)
            let image = context.image
            context.image = try ImageProcessor.library { () throws(WebImageError) in try flip.transform(image) }
        }
    }
}
