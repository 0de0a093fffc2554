extension Settings {
    // Pixels: shrink on load, linear light, high bit depth
    static let disableShrinkOnLoad = Setting<Bool>(
        "disable-shrink-on-load", .boolean, imgproxy: ["IMGPROXY_DISABLE_SHRINK_ON_LOAD"])
    static let useLinearColorspace = Setting<Bool>(
        "use-linear-colorspace", .boolean, imgproxy: ["IMGPROXY_USE_LINEAR_COLORSPACE"])
    static let preserveHDR = Setting<Bool>("preserve-hdr", .boolean, imgproxy: ["IMGPROXY_PRESERVE_HDR"])

    /// The settings of ``PixelOptions``.
    static let pixels: [any SettingVariables] = [disableShrinkOnLoad, useLinearColorspace, preserveHDR]
}
