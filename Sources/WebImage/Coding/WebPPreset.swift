import CWebP

/// libwebp's encoder presets: filter strength, sharpness and segment settings tuned for one kind of picture
/// (libvips' and imgproxy's `IMGPROXY_WEBP_PRESET`), set with ``EncodingOptions/webpPreset``.
public struct WebPPreset: Sendable, Hashable, CustomStringConvertible {
    /// libwebp's and imgproxy's name: `default`, `picture`, `photo`, `drawing`, `icon` or `text`.
    public let name: String
    let value: CWebP.WebPPreset

    /// libwebp's defaults.
    public static let `default` = WebPPreset(name: "default", value: WEBP_PRESET_DEFAULT)
    /// A digital picture, such as a portrait or an indoor shot.
    public static let picture = WebPPreset(name: "picture", value: WEBP_PRESET_PICTURE)
    /// An outdoor photograph with natural lighting.
    public static let photo = WebPPreset(name: "photo", value: WEBP_PRESET_PHOTO)
    /// A hand or line drawing with high-contrast details.
    public static let drawing = WebPPreset(name: "drawing", value: WEBP_PRESET_DRAWING)
    /// A small, colourful image.
    public static let icon = WebPPreset(name: "icon", value: WEBP_PRESET_ICON)
    /// Text-like content.
    public static let text = WebPPreset(name: "text", value: WEBP_PRESET_TEXT)

    /// The preset libwebp names `name` (any case); `nil` for another name.
    public init?(named name: String) {
        let all = [Self.default, .picture, .photo, .drawing, .icon, .text]
        guard let known = all.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = known
    }

    private init(name: String, value: CWebP.WebPPreset) {
        self.name = name
        self.value = value
    }

    public var description: String { name }

    public static func == (lhs: WebPPreset, rhs: WebPPreset) -> Bool { lhs.name == rhs.name }

    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// libwebp's configuration for `options` at `quality`: this preset, then ``EncodingOptions/webpEffort`` as the
    /// method when set (libwebp's default is 4).
    static func configuration(_ options: EncodingOptions, quality: Float) throws(WebImageError) -> WebPConfig {
        var config = WebPConfig()
        guard WebPConfigPreset(&config, options.webpPreset.value, quality) != 0 else {
            throw WebImageError(.encodingFailed, "libwebp did not start")
        }
        if let effort = options.webpEffort { config.method = Int32(min(max(effort, 0), 6)) }
        return config
    }
}
