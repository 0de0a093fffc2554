/// The `/info` endpoint's settings, imgproxy's `IMGPROXY_ALLOWED_INFO_OPTIONS`, `IMGPROXY_INFO_PRESETS`,
/// `IMGPROXY_INFO_PRESETS_PATH` and `IMGPROXY_INFO_ONLY_PRESETS` (docs/info.md).
extension Settings {
    static let allowedInfoOptions = Setting<[String]>(
        "allowed-info-options", .list(), imgproxy: ["IMGPROXY_ALLOWED_INFO_OPTIONS"])
    static let infoPreset = Setting<[String]>(
        "info-preset", .list(), imgproxy: ["IMGPROXY_INFO_PRESETS"],
        imgproxyParser: .list(separatedBy: Env.value(presetsSeparator) ?? ","))
    static let infoPresetsFile = Setting<String>("info-presets-file", .text, imgproxy: ["IMGPROXY_INFO_PRESETS_PATH"])
    static let infoOnlyPresets = Setting<Bool>("info-only-presets", .boolean, imgproxy: ["IMGPROXY_INFO_ONLY_PRESETS"])

    /// The settings of ``InfoServeOptions``.
    static let info: [any SettingVariables] = [allowedInfoOptions, infoPreset, infoPresetsFile, infoOnlyPresets]
}
