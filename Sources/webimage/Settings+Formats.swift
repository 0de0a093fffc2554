extension Settings {
    // Formats: JPEG XL negotiation, PNG gamma
    static let autoJXL = Setting<Bool>("auto-jxl", .boolean, imgproxy: ["IMGPROXY_AUTO_JXL"])
    static let enforcesJXL = Setting<Bool>("enforce-jxl", .boolean, imgproxy: ["IMGPROXY_ENFORCE_JXL"])
    static let pngGamma = Setting<Bool>("png-gamma", .boolean)
    // Loader limits lifted, as libvips' `unlimited`
    static let pngUnlimited = Setting<Bool>("png-unlimited", .boolean, imgproxy: ["IMGPROXY_PNG_UNLIMITED"])
    static let svgUnlimited = Setting<Bool>("svg-unlimited", .boolean, imgproxy: ["IMGPROXY_SVG_UNLIMITED"])
    static let tiffUnlimited = Setting<Bool>("tiff-unlimited", .boolean, imgproxy: ["IMGPROXY_TIFF_UNLIMITED"])

    /// The settings of ``FormatOptions``.
    static let formats: [any SettingVariables] = [
        autoJXL, enforcesJXL, pngGamma, pngUnlimited, svgUnlimited, tiffUnlimited,
    ]
}
