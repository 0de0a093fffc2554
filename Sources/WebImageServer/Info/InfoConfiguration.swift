/// The `/info` endpoint's settings (`--allowed-info-options`, `--info-preset`, `--info-only-presets`).
public struct InfoConfiguration: Sendable, Hashable {
    /// Whether `/info` answers at all. Default: `true`.
    public var isEnabled = true
    /// The info options a URL may name (full and short names count apart, as in imgproxy); empty allows all.
    /// Presets are not checked.
    public var allowedOptions: Set<String> = []
    /// Info presets (imgproxy's `IMGPROXY_INFO_PRESETS`); `default` applies to every request.
    public var presets = Presets()
    /// Whether the options part of a URL is a list of preset names only (`IMGPROXY_INFO_ONLY_PRESETS`).
    public var onlyPresets = false
    /// Whether `max_src_resolution` and `max_src_file_size` may be given (`--allow-security-options`).
    public var allowsSecurityOptions = false

    /// The defaults: enabled, every option allowed, no presets.
    public init() {}

    /// Info presets from `NAME=opt:arg/opt:arg` definitions (arguments separated by `argumentsSeparator`), each
    /// checked as info options.
    ///
    /// - Throws: ``ImageServerError`` naming the first bad definition or option.
    public static func presets(
        definitions: [String], argumentsSeparator: String = ":"
    ) throws(ImageServerError) -> Presets {
        var configuration = InfoConfiguration()
        configuration.presets = try Presets(unvalidated: definitions, argumentsSeparator: argumentsSeparator)
        try InfoURLParser.validate(configuration)
        return configuration.presets
    }
}
