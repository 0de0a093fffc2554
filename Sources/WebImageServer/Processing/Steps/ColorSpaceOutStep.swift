/// imgproxy's `colorspaceToResult`: with `strip_color_profile:0`, a result format with room for an ICC profile keeps
/// the pixels in the source's colour space and embeds its profile; otherwise the encoder converts them to sRGB.
struct ColorSpaceOutStep: ProcessingStep {
    func apply(to context: inout ProcessingContext) throws(ImageServerError) {
        context.encoding.embedsColorProfile =
            !context.options.stripColorProfile && ImageProcessor.profileCarrying.contains(context.format)
    }
}
