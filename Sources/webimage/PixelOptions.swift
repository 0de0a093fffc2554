import ArgumentParser
import WebImageServer

/// `webimage serve`'s pixel options: imgproxy's `IMGPROXY_DISABLE_SHRINK_ON_LOAD`,
/// `IMGPROXY_USE_LINEAR_COLORSPACE` and `IMGPROXY_PRESERVE_HDR`. Each defaults to its `WEBIMAGE_` variable, else to
/// imgproxy's (``Settings``).
struct PixelOptions: ParsableArguments {
    @Flag(
        inversion: .prefixedNo,
        help: ArgumentHelp(
            "Decode JPEG, WebP, HEIC and AVIF sources at full size even for a smaller result (default: off, as imgproxy).",
            discussion: "Shrinking on load is faster; imgproxy's results after a crop can differ by a pixel with it."))
    var disableShrinkOnLoad: Bool?
    @Flag(
        inversion: .prefixedNo,
        help: "Resize in linear light rather than in the encoded (gamma) values (default: off, as imgproxy).")
    var useLinearColorspace: Bool?
    @Flag(
        name: .customLong("preserve-hdr"), inversion: .prefixedNo,
        help: ArgumentHelp(
            "The default of preserve_hdr (default: off, as imgproxy; IMGPROXY_PRESERVE_HDR).",
            discussion: "Part of the result's cache key; results have 8 bits per channel either way (README)."))
    var preserveHDR: Bool?

    /// Sets the configuration's shrink on load, linear resizing and `preserve_hdr` default; throws for a variable that
    /// does not parse.
    func apply(to configuration: inout ImageServerConfiguration) throws {
        configuration.shrinksOnLoad = !(try Settings.disableShrinkOnLoad.resolve(disableShrinkOnLoad) ?? false)
        configuration.usesLinearColorspace =
            try Settings.useLinearColorspace.resolve(useLinearColorspace) ?? configuration.usesLinearColorspace
        configuration.optionDefaults.preserveHDR =
            try Settings.preserveHDR.resolve(preserveHDR) ?? configuration.optionDefaults.preserveHDR
    }
}
