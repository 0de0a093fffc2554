/// imgproxy's `colorspaceToResult`: every step ran on the pixels in the source's colour space (imgproxy 4 imports no
/// RGB profile: a `background` is numbers in that space); with `strip_color_profile:0` a result format with room for
/// an ICC profile keeps them there and embeds the profile, otherwise the encoder converts them to sRGB (imgproxy's
/// `TransformColourProfileToStandard`) and writes no profile.
struct ColorSpaceOutStep: ProcessingStep {
    func apply(to context: inout ProcessingContext) throws(ImageServerError) {
        context.encoding.embedsColorProfile =
            !context.options.stripColorProfile && ImageProcessor.profileCarrying.contains(context.format)
    }
}
