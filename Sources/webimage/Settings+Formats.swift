extension Settings {
    // Formats: JPEG XL negotiation, PNG gamma
    static let autoJXL = Setting<Bool>("auto-jxl", .boolean, imgproxy: ["IMGPROXY_AUTO_JXL"])
    static let enforcesJXL = Setting<Bool>("enforce-jxl", .boolean, imgproxy: ["IMGPROXY_ENFORCE_JXL"])
    static let pngGamma = Setting<Bool>("png-gamma", .boolean)

    /// The settings of ``FormatOptions``.
    static let formats: [any SettingVariables] = [autoJXL, enforcesJXL, pngGamma]
}
