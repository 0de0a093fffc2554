/// imgproxy's `stripMetadata`: the result carries the source's EXIF and XMP only with `strip_metadata:0`.
struct StripMetadataStep: ProcessingStep {
    func apply(to context: inout ProcessingContext) throws(ImageServerError) {
        context.encoding.embedsMetadata = !context.options.stripMetadata
    }
}
