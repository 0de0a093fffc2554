import ArgumentParser
import WebImageServer

/// `webimage serve`'s format options: JPEG XL by `Accept` (imgproxy's `IMGPROXY_AUTO_JXL` and
/// `IMGPROXY_ENFORCE_JXL`) and PNG gamma. Each defaults to its `WEBIMAGE_` variable, else to imgproxy's
/// (``Settings``).
struct FormatOptions: ParsableArguments {
    @Flag(
        inversion: .prefixedNo,
        help: "Answer JPEG XL when the client accepts it and the URL names no format, before AVIF (default: off).")
    var autoJxl: Bool?
    @Flag(
        inversion: .prefixedNo,
        help: "Answer JPEG XL whenever the client accepts it, even when the URL names a format (default: off).")
    var enforceJxl: Bool?
    @Flag(
        inversion: .prefixedNo,
        help: ArgumentHelp(
            "Convert PNGs described only by gAMA/cHRM to sRGB, as browsers do (default: off, as imgproxy).",
            discussion: "The library and `webimage fetch` convert them by default; the server answers as imgproxy."))
    var pngGamma: Bool?

    /// Sets the configuration's JPEG XL negotiation and PNG gamma; throws for a variable that does not parse.
    func apply(to configuration: inout ImageServerConfiguration) throws {
        configuration.autoJXL = try Settings.autoJXL.resolve(autoJxl) ?? configuration.autoJXL
        configuration.enforcesJXL = try Settings.enforcesJXL.resolve(enforceJxl) ?? configuration.enforcesJXL
        configuration.appliesPNGGamma = try Settings.pngGamma.resolve(pngGamma) ?? configuration.appliesPNGGamma
    }
}
