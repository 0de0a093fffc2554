/// Which processing options a URL may use (imgproxy's `IMGPROXY_ALLOWED_PROCESSING_OPTIONS`,
/// `IMGPROXY_ONLY_PRESETS` and `IMGPROXY_ALLOW_SECURITY_OPTIONS`).
public struct OptionRules: Sendable, Hashable {
    /// When not empty, the only option names (long or short, as written) a URL may use; presets may use any.
    /// Another option is answered 404 "forbidden processing option". Default empty: any.
    public var allowedOptions: Set<String> = []
    /// The options part of a URL is only preset names separated by `:` (imgproxy's only-presets mode). Default off.
    public var onlyPresets = false
    /// The security options (`max_src_resolution`, `max_src_file_size`, `max_animation_frames`,
    /// `max_animation_frame_resolution`, `max_result_dimension`) are taken, in URLs and presets; otherwise they are
    /// answered 403. Default off, as in imgproxy.
    public var allowsSecurityOptions = false

    /// imgproxy's defaults: any option but the security ones.
    public init() {}

    /// Throws unless the option of entry `entry`, written as `name`, may be used; `inPreset` for one of a preset.
    func check(_ name: String, entry: OptionEntry?, inPreset: Bool) throws(ImageServerError) {
        if !inPreset, !allowedOptions.isEmpty, !allowedOptions.contains(name) {
            throw .invalid("forbidden processing option \(name.prefix(64))")
        }
        if let entry, entry.isSecurity, !allowsSecurityOptions {
            throw ImageServerError(status: 403, "security processing options are not allowed")
        }
    }
}
