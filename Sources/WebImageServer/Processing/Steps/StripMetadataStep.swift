/// imgproxy's `stripMetadata`: the result carries the source's EXIF, XMP and IPTC only with `strip_metadata:0`;
/// stripped, it still carries their copyright fields with `keep_copyright` (on by default): the EXIF copyright and
/// artist, the XMP rights properties, the IPTC By-line, Credit and Copyright Notice
/// (`EncodingOptions.keepsCopyright`).
struct StripMetadataStep: ProcessingStep {
    func apply(to context: inout ProcessingContext) throws(ImageServerError) {
        context.encoding.embedsMetadata = !context.options.stripMetadata
        context.encoding.keepsCopyright = context.options.keepCopyright
    }
}
