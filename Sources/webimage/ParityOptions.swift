import ArgumentParser
import Foundation
import WebImageServer

/// `webimage serve`'s options of which URL options are taken, the fallback image, the client limit, the animation
/// frame limit and the log format (imgproxy's `IMGPROXY_ALLOWED_PROCESSING_OPTIONS`, `IMGPROXY_ONLY_PRESETS`,
/// `IMGPROXY_ALLOW_SECURITY_OPTIONS`, `IMGPROXY_FALLBACK_IMAGE_*`, `IMGPROXY_MAX_CLIENTS`,
/// `IMGPROXY_MAX_ANIMATION_FRAME_RESOLUTION`, `IMGPROXY_LOG_FORMAT`); each defaults to `WEBIMAGE_<NAME>`, else to
/// imgproxy's variable (``Settings``).
struct ParityOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The only processing options URLs may use; presets may use any (IMGPROXY_ALLOWED_PROCESSING_OPTIONS).",
            valueName: "NAME,..."))
    var allowedProcessingOptions: String?
    @Flag(help: "URLs name only presets, OPTIONS being PRESET:PRESET... (IMGPROXY_ONLY_PRESETS).")
    var onlyPresets = false
    @Flag(help: "Take max_src_resolution, max_src_file_size, ... in URLs (IMGPROXY_ALLOW_SECURITY_OPTIONS).")
    var allowSecurityOptions = false
    @Option(help: "The most megapixels of one animation frame; 0 = none (IMGPROXY_MAX_ANIMATION_FRAME_RESOLUTION).")
    var maxAnimationFrameResolution: Double?
    @Option(
        help: ArgumentHelp(
            "Serve every route under this path, /health and /metrics included (IMGPROXY_PATH_PREFIX).",
            valueName: "/PREFIX"))
    var pathPrefix: String?
    @Option(help: "The most connections served at once; 0 = no limit (default: 2048; IMGPROXY_MAX_CLIENTS).")
    var maxClients: Int?
    @Option(help: "pretty, structured (key=value) or json (default: pretty; IMGPROXY_LOG_FORMAT).")
    var logFormat: String?
    @Option(
        help: ArgumentHelp("The fallback image, base64-encoded (IMGPROXY_FALLBACK_IMAGE_DATA).", valueName: "BASE64"))
    var fallbackImageData: String?
    @Option(help: ArgumentHelp("The fallback image file (IMGPROXY_FALLBACK_IMAGE_PATH).", valueName: "PATH"))
    var fallbackImagePath: String?
    @Option(help: ArgumentHelp("The fallback image URL (IMGPROXY_FALLBACK_IMAGE_URL).", valueName: "URL"))
    var fallbackImageUrl: String?
    @Option(
        help: "The status of a fallback response; 0 = the failure's (default: 200; IMGPROXY_FALLBACK_IMAGE_HTTP_CODE).")
    var fallbackImageHttpCode: Int?
    @Option(help: "Cache-Control max-age of a fallback response; 0 = the TTL (IMGPROXY_FALLBACK_IMAGE_TTL).")
    var fallbackImageTtl: Int?

    /// The log format, from the flag or the environment.
    func resolvedLogFormat() throws -> LogFormat {
        try Settings.logFormat.resolve(parsing: logFormat) ?? .pretty
    }

    /// Sets the option rules, the fallback image, the client limit and the frame limit of `configuration`; throws for
    /// a value that does not parse.
    func apply(to configuration: inout ImageServerConfiguration) throws {
        var rules = OptionRules()
        rules.allowedOptions = Set(
            try Settings.allowedProcessingOptions.resolve(parsing: allowedProcessingOptions) ?? [])
        rules.onlyPresets = try Settings.onlyPresets.resolve(switch: onlyPresets)
        rules.allowsSecurityOptions = try Settings.allowSecurityOptions.resolve(switch: allowSecurityOptions)
        configuration.optionRules = rules
        configuration.info.allowsSecurityOptions = rules.allowsSecurityOptions
        if let megapixels = try Settings.maxAnimationFrameResolution.resolve(maxAnimationFrameResolution) {
            configuration.limits.maxAnimationFrameResolution = ServeCommand.saturating(megapixels * 1_000_000)
        }
        if let clients = try Settings.maxClients.resolve(maxClients) { configuration.maxClients = clients }
        if let prefix = try Settings.pathPrefix.resolve(pathPrefix) { configuration.pathPrefix = prefix }
        guard let source = try fallbackSource() else { return }
        var fallback = FallbackImageConfiguration(source: source)
        if let code = try Settings.fallbackImageHTTPCode.resolve(fallbackImageHttpCode) { fallback.statusCode = code }
        if let ttl = try Settings.fallbackImageTTL.resolve(fallbackImageTtl) { fallback.ttl = ttl }
        configuration.fallbackImage = fallback
    }

    /// The fallback image from base64 bytes, a file or a URL, in that order of precedence, as imgproxy.
    private func fallbackSource() throws -> WatermarkSource? {
        if let data = try Settings.fallbackImageData.resolve(fallbackImageData) {
            guard let bytes = Data(base64Encoded: data) else {
                throw ValidationError("--fallback-image-data must be base64")
            }
            return .data(bytes)
        }
        if let path = try Settings.fallbackImagePath.resolve(fallbackImagePath) {
            return .path(URL(fileURLWithPath: path))
        }
        if let text = try Settings.fallbackImageURL.resolve(fallbackImageUrl) {
            guard let url = URL(string: text) else { throw ValidationError("--fallback-image-url must be a URL") }
            return .url(url)
        }
        return nil
    }
}
