/// imgproxy's `stripMetadata`: the result carries the source's EXIF and XMP only with `strip_metadata:0`; stripped,
/// it still carries the EXIF copyright and artist with `keep_copyright` (on by default).
struct StripMetadataStep: ProcessingStep {
    func apply(to context: inout ProcessingContext) throws(ImageServerError) {
        context.encoding.embedsMetadata = !context.options.stripMetadata
        context.encoding.keepsCopyright = context.options.keepCopyright
    }
}
