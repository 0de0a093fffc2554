import ArgumentParser
import WebImageServer

/// `webimage serve`'s SVG options: how an SVG source without a format in the URL is answered (``Settings``'
/// `alwaysRasterizeSVG` and `noSanitizeSVG`, imgproxy's `IMGPROXY_ALWAYS_RASTERIZE_SVG` and `IMGPROXY_SANITIZE_SVG`).
struct SVGOptions: ParsableArguments {
    @Flag(
        help:
            "Render SVG sources to the negotiated or preferred format even when the URL names none (by default they are answered as SVG)."
    )
    var alwaysRasterizeSvg = false
    @Flag(help: "Answer SVG sources as they are, without removing scripts, event attributes and unsafe links.")
    var noSanitizeSvg = false

    /// Sets the configuration's SVG switches; throws for a variable that does not parse.
    func apply(to configuration: inout ImageServerConfiguration) throws {
        configuration.alwaysRasterizesSVG = try Settings.alwaysRasterizeSVG.resolve(switch: alwaysRasterizeSvg)
        configuration.sanitizesSVG = try !Settings.noSanitizeSVG.resolve(switch: noSanitizeSvg)
    }
}
