import ArgumentParser
import WebImage
import WebImageServer

/// `webimage serve`'s options of the defaults every URL starts from and of the encoders (imgproxy's
/// `IMGPROXY_QUALITY`, `IMGPROXY_FORMAT_QUALITY`, `IMGPROXY_JPEG_PROGRESSIVE`, …, `IMGPROXY_STRIP_METADATA`, …); each
/// defaults to `WEBIMAGE_<NAME>`, else to imgproxy's variable (``Settings``).
struct EncoderOptions: ParsableArguments {
    @Option(help: "The quality when the URL sets none, 1 to 100 (default: 80; IMGPROXY_QUALITY).")
    var quality: Int?
    @Option(
        help: ArgumentHelp(
            "Per-format default qualities (default: webp=79,avif=63,jxl=77; IMGPROXY_FORMAT_QUALITY).",
            valueName: "jpeg=70,webp=60"))
    var formatQuality: String?
    @Flag(inversion: .prefixedNo, help: "Progressive JPEGs (default: off; IMGPROXY_JPEG_PROGRESSIVE).")
    var jpegProgressive: Bool?
    @Flag(inversion: .prefixedNo, help: "Interlaced PNGs (default: off; IMGPROXY_PNG_INTERLACED).")
    var pngInterlaced: Bool?
    @Flag(inversion: .prefixedNo, help: "PNGs reduced to a palette (default: off; IMGPROXY_PNG_QUANTIZE).")
    var pngQuantize: Bool?
    @Option(help: "The most colours of a quantized PNG, 2 to 256 (default: 256; IMGPROXY_PNG_QUANTIZATION_COLORS).")
    var pngQuantizationColors: Int?
    @Option(help: "lossy, near_lossless or lossless (default: lossy; IMGPROXY_WEBP_COMPRESSION).")
    var webpCompression: String?
    @Option(help: "libwebp's method, 1 (fastest) to 6 (smallest files) (default: 4; IMGPROXY_WEBP_EFFORT).")
    var webpEffort: Int?
    @Option(help: "default, photo, picture, drawing, icon or text (default: default; IMGPROXY_WEBP_PRESET).")
    var webpPreset: String?
    @Option(help: "The AVIF encoder's speed, 0 (smallest files) to 9 (fastest) (default: 8; IMGPROXY_AVIF_SPEED).")
    var avifSpeed: Int?
    @Option(help: "libjxl's effort, 1 (fastest) to 9 (smallest files) (default: 4; IMGPROXY_JXL_EFFORT).")
    var jxlEffort: Int?
    @Flag(
        inversion: .prefixedNo,
        help: "WebP whenever the client accepts it, whatever the URL asks (IMGPROXY_ENFORCE_WEBP).")
    var enforceWebp: Bool?
    @Flag(
        inversion: .prefixedNo,
        help: "AVIF whenever the client accepts it, whatever the URL asks (IMGPROXY_ENFORCE_AVIF).")
    var enforceAvif: Bool?
    @Flag(
        inversion: .prefixedNo, help: "Strip metadata unless the URL says sm:0 (default: on; IMGPROXY_STRIP_METADATA).")
    var stripMetadata: Bool?
    @Flag(
        inversion: .prefixedNo,
        help: "Keep the EXIF, XMP and IPTC copyright fields when stripping (default: on; IMGPROXY_KEEP_COPYRIGHT).")
    var keepCopyright: Bool?
    @Flag(
        inversion: .prefixedNo,
        help: "Convert to sRGB and drop the ICC profile (default: on; IMGPROXY_STRIP_COLOR_PROFILE).")
    var stripColorProfile: Bool?
    @Flag(inversion: .prefixedNo, help: "Apply the EXIF orientation (default: on; IMGPROXY_AUTO_ROTATE).")
    var autoRotate: Bool?
    @Flag(
        inversion: .prefixedNo,
        help: "Decode a HEIC or AVIF source's embedded thumbnail, if any (default: off; IMGPROXY_ENFORCE_THUMBNAIL).")
    var enforceThumbnail: Bool?
    @Flag(
        inversion: .prefixedNo,
        help: "Content-Disposition: attachment unless the URL says att:0 (default: off; IMGPROXY_RETURN_ATTACHMENT).")
    var returnAttachment: Bool?
    @Option(
        help: ArgumentHelp(
            "Source formats answered unprocessed when the URL names no other format (IMGPROXY_SKIP_PROCESSING_FORMATS).",
            valueName: "FORMAT,..."))
    var skipProcessingFormats: String?

    /// Sets the encoder settings and the option defaults of `configuration`; throws for a value that does not parse.
    func apply(to configuration: inout ImageServerConfiguration) throws {
        var encoder = configuration.encoder
        if let value = try Settings.quality.resolve(quality) { encoder.quality = value }
        if let pairs = try Settings.formatQuality.resolve(parsing: formatQuality) {
            encoder.formatQuality = try Self.formatQuality(pairs)
        }
        encoder.jpegProgressive = try Settings.jpegProgressive.resolve(jpegProgressive) ?? encoder.jpegProgressive
        encoder.pngInterlaced = try Settings.pngInterlaced.resolve(pngInterlaced) ?? encoder.pngInterlaced
        encoder.pngQuantize = try Settings.pngQuantize.resolve(pngQuantize) ?? encoder.pngQuantize
        if let colors = try Settings.pngQuantizationColors.resolve(pngQuantizationColors) {
            encoder.pngQuantizationColors = colors
        }
        if let name = try Settings.webpCompression.resolve(webpCompression) {
            guard let compression = WebPCompression(named: name) else {
                throw ValidationError("--webp-compression: '\(name)' must be lossy, near_lossless or lossless")
            }
            encoder.webpCompression = compression
        }
        encoder.webpEffort = try Settings.webpEffort.resolve(webpEffort) ?? encoder.webpEffort
        encoder.webpPreset = try Settings.webpPreset.resolve(parsing: webpPreset) ?? encoder.webpPreset
        encoder.avifSpeed = try Settings.avifSpeed.resolve(avifSpeed) ?? encoder.avifSpeed
        encoder.jxlEffort = try Settings.jxlEffort.resolve(jxlEffort) ?? encoder.jxlEffort
        configuration.encoder = encoder
        configuration.enforcesWebP = try Settings.enforceWebP.resolve(enforceWebp) ?? false
        configuration.enforcesAVIF = try Settings.enforceAVIF.resolve(enforceAvif) ?? false
        var defaults = configuration.optionDefaults
        defaults.stripMetadata = try Settings.stripMetadata.resolve(stripMetadata) ?? defaults.stripMetadata
        defaults.keepCopyright = try Settings.keepCopyright.resolve(keepCopyright) ?? defaults.keepCopyright
        defaults.stripColorProfile =
            try Settings.stripColorProfile.resolve(stripColorProfile) ?? defaults.stripColorProfile
        defaults.autoRotate = try Settings.autoRotate.resolve(autoRotate) ?? defaults.autoRotate
        defaults.enforceThumbnail = try Settings.enforceThumbnail.resolve(enforceThumbnail) ?? defaults.enforceThumbnail
        defaults.returnAttachment = try Settings.returnAttachment.resolve(returnAttachment) ?? defaults.returnAttachment
        if let names = try Settings.skipProcessingFormats.resolve(parsing: skipProcessingFormats) {
            defaults.skipProcessingFormats = Set(
                try names.map { name in
                    guard let format = ImageServerConfiguration.format(named: name) else {
                        throw ValidationError("--skip-processing-formats: '\(name)' is not an image format")
                    }
                    return format
                })
        }
        configuration.optionDefaults = defaults
    }

    /// imgproxy's `jpeg=70,webp=60` pairs (already split at the commas) as qualities by format.
    static func formatQuality(_ pairs: [String]) throws -> [ImageFormat: Int] {
        var qualities: [ImageFormat: Int] = [:]
        for pair in pairs {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let format = ImageServerConfiguration.format(named: parts[0]),
                let quality = Int(parts[1])
            else { throw ValidationError("--format-quality: '\(pair)' must be FORMAT=QUALITY") }
            qualities[format] = quality
        }
        return qualities
    }
}
