/// The SVG rows of ``Settings``: imgproxy's `IMGPROXY_ALWAYS_RASTERIZE_SVG` and `IMGPROXY_SANITIZE_SVG` (read
/// inverted into `--no-sanitize-svg`: `IMGPROXY_SANITIZE_SVG=false` turns sanitising off).
extension Settings {
    static let alwaysRasterizeSVG = Setting<Bool>(
        "always-rasterize-svg", .boolean, imgproxy: ["IMGPROXY_ALWAYS_RASTERIZE_SVG"])
    static let noSanitizeSVG = Setting<Bool>(
        "no-sanitize-svg", .boolean, imgproxy: ["IMGPROXY_SANITIZE_SVG"],
        imgproxyParser: ValueParser<Bool>.boolean.map { !$0 })

    /// The SVG settings, for ``all``.
    static let svg: [any SettingVariables] = [alwaysRasterizeSVG, noSanitizeSVG]
}
