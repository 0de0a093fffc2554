import ArgumentParser
import WebImage
import WebImageServer

/// `webimage serve`'s format options: JPEG XL by `Accept` (imgproxy's `IMGPROXY_AUTO_JXL` and
/// `IMGPROXY_ENFORCE_JXL`), PNG gamma, and the loader limits lifted (`IMGPROXY_PNG_UNLIMITED`,
/// `IMGPROXY_SVG_UNLIMITED`, `IMGPROXY_TIFF_UNLIMITED`). Each defaults to its `WEBIMAGE_` variable, else to
/// imgproxy's (``Settings``).
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
    @Flag(
        inversion: .prefixedNo,
        help: "Lift libspng's 64 MiB chunk limits, as imgproxy's IMGPROXY_PNG_UNLIMITED (default: off).")
    var pngUnlimited: Bool?
    @Flag(
        inversion: .prefixedNo,
        help: "Lift the 10 MiB SVG limit to --max-src-file-size, as imgproxy's IMGPROXY_SVG_UNLIMITED (default: off).")
    var svgUnlimited: Bool?
    @Flag(
        inversion: .prefixedNo,
        help: "Lift libtiff's allocation limit, as imgproxy's IMGPROXY_TIFF_UNLIMITED (default: off).")
    var tiffUnlimited: Bool?

    /// Sets the configuration's JPEG XL negotiation and PNG gamma; throws for a variable that does not parse.
    func apply(to configuration: inout ImageServerConfiguration) throws {
        configuration.autoJXL = try Settings.autoJXL.resolve(autoJxl) ?? configuration.autoJXL
        configuration.enforcesJXL = try Settings.enforcesJXL.resolve(enforceJxl) ?? configuration.enforcesJXL
        configuration.appliesPNGGamma = try Settings.pngGamma.resolve(pngGamma) ?? configuration.appliesPNGGamma
        let unlimited: [(Setting<Bool>, Bool?, ImageFormat)] = [
            (Settings.pngUnlimited, pngUnlimited, .png), (Settings.svgUnlimited, svgUnlimited, .svg),
            (Settings.tiffUnlimited, tiffUnlimited, .tiff),
        ]
        for (setting, flag, format) in unlimited {
            guard let lifted = try setting.resolve(flag) else { continue }
            if lifted {
                configuration.unlimitedFormats.insert(format)
            } else {
                configuration.unlimitedFormats.remove(format)
            }
        }
    }
}
