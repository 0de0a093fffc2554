import WebImage

/// The result's format as a request decides it before its source is known: imgproxy's `determineOutputFormat`,
/// split at the one fact of the source it needs, whether it is animated. For a still source, JPEG XL, then AVIF, then
/// WebP when the client accepts it and the server enforces it; else the URL's format; else the one `Accept` chooses
/// (JPEG XL with `autoJXL` or `enforcesJXL`, then AVIF with `autoAVIF` or `enforcesAVIF`, then WebP with `autoWebP` or
/// `enforcesWebP`). For an animated source the same without JPEG XL and AVIF, which imgproxy skips for animations.
/// `nil`: chosen once the image is decoded (``FormatChoice``).
///
/// It is part of the result's key (``identity``): the key is known before the source is fetched, and the same
/// request with the same source always makes the same result.
struct FormatRequest: Sendable, Hashable {
    /// The format of the result of a still source.
    let still: ImageFormat?
    /// The format of the result of an animated source.
    let animated: ImageFormat?

    /// `format` whatever the source.
    init(_ format: ImageFormat?) {
        (still, animated) = (format, format)
    }

    /// The formats `options`, the client's `negotiation` and the server's `configuration` ask for.
    init(options: ProcessingOptions, negotiation: Negotiation, configuration: ImageServerConfiguration) {
        func format(animated: Bool) -> ImageFormat? {
            let (jxl, avif, webp) = (
                !animated && negotiation.acceptsJXL, !animated && negotiation.acceptsAVIF, negotiation.acceptsWebP
            )
            if configuration.enforcesJXL && jxl { return .jxl }
            if configuration.enforcesAVIF && avif { return .avif }
            if configuration.enforcesWebP && webp { return .webp }
            if let format = options.format { return format }
            if configuration.autoJXL && jxl { return .jxl }
            if configuration.autoAVIF && avif { return .avif }
            if configuration.autoWebP && webp { return .webp }
            return nil
        }
        (still, animated) = (format(animated: false), format(animated: true))
    }

    /// The format for a source that is `animated` (more than one frame, and more than one allowed).
    func format(animated: Bool) -> ImageFormat? { animated ? self.animated : still }

    /// The text the result key holds: the format's name (`auto` for none) when both agree, so the key of a request
    /// whose format does not depend on the source is what it was; else both (`jxl/webp`).
    var identity: String {
        let name = still?.name ?? "auto"
        return still == animated ? name : name + "/" + (animated?.name ?? "auto")
    }
}
