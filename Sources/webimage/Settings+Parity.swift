import WebImage

/// The settings of imgproxy's option rules, option defaults, encoders, fallback image, client limit and log format,
/// in ``Settings``' table (`all` includes ``parity``).
extension Settings {
    // Option rules and the option defaults
    static let allowSecurityOptions = Setting<Bool>(
        "allow-security-options", .boolean, imgproxy: ["IMGPROXY_ALLOW_SECURITY_OPTIONS"])
    static let allowedProcessingOptions = Setting<[String]>(
        "allowed-processing-options", .list(), imgproxy: ["IMGPROXY_ALLOWED_PROCESSING_OPTIONS"])
    static let onlyPresets = Setting<Bool>("only-presets", .boolean, imgproxy: ["IMGPROXY_ONLY_PRESETS"])
    static let skipProcessingFormats = Setting<[String]>(
        "skip-processing-formats", .list(), imgproxy: ["IMGPROXY_SKIP_PROCESSING_FORMATS"])
    static let stripMetadata = Setting<Bool>("strip-metadata", .boolean, imgproxy: ["IMGPROXY_STRIP_METADATA"])
    static let keepCopyright = Setting<Bool>("keep-copyright", .boolean, imgproxy: ["IMGPROXY_KEEP_COPYRIGHT"])
    static let stripColorProfile = Setting<Bool>(
        "strip-color-profile", .boolean, imgproxy: ["IMGPROXY_STRIP_COLOR_PROFILE"])
    static let autoRotate = Setting<Bool>("auto-rotate", .boolean, imgproxy: ["IMGPROXY_AUTO_ROTATE"])
    static let enforceThumbnail = Setting<Bool>(
        "enforce-thumbnail", .boolean, imgproxy: ["IMGPROXY_ENFORCE_THUMBNAIL"])
    static let returnAttachment = Setting<Bool>(
        "return-attachment", .boolean, imgproxy: ["IMGPROXY_RETURN_ATTACHMENT"])

    // Limits and the server
    static let maxAnimationFrameResolution = Setting<Double>(
        "max-animation-frame-resolution", .number, imgproxy: ["IMGPROXY_MAX_ANIMATION_FRAME_RESOLUTION"])
    static let maxClients = Setting<Int>("max-clients", .integer, imgproxy: ["IMGPROXY_MAX_CLIENTS"])
    static let pathPrefix = Setting<String>("path-prefix", .text, imgproxy: ["IMGPROXY_PATH_PREFIX"])
    static let logFormat = Setting<LogFormat>("log-format", .logFormat, imgproxy: ["IMGPROXY_LOG_FORMAT"])

    // Encoders
    static let quality = Setting<Int>("quality", .integer, imgproxy: ["IMGPROXY_QUALITY"])
    static let formatQuality = Setting<[String]>(
        "format-quality", .list(), imgproxy: ["IMGPROXY_FORMAT_QUALITY"])
    static let jpegProgressive = Setting<Bool>(
        "jpeg-progressive", .boolean, imgproxy: ["IMGPROXY_JPEG_PROGRESSIVE"])
    static let pngInterlaced = Setting<Bool>("png-interlaced", .boolean, imgproxy: ["IMGPROXY_PNG_INTERLACED"])
    static let pngQuantize = Setting<Bool>("png-quantize", .boolean, imgproxy: ["IMGPROXY_PNG_QUANTIZE"])
    static let pngQuantizationColors = Setting<Int>(
        "png-quantization-colors", .integer, imgproxy: ["IMGPROXY_PNG_QUANTIZATION_COLORS"])
    static let webpCompression = Setting<String>(
        "webp-compression", .text, imgproxy: ["IMGPROXY_WEBP_COMPRESSION"])
    static let webpEffort = Setting<Int>("webp-effort", .integer, imgproxy: ["IMGPROXY_WEBP_EFFORT"])
    static let webpPreset = Setting<WebPPreset>("webp-preset", .webpPreset, imgproxy: ["IMGPROXY_WEBP_PRESET"])
    static let avifSpeed = Setting<Int>("avif-speed", .integer, imgproxy: ["IMGPROXY_AVIF_SPEED"])
    static let jxlEffort = Setting<Int>("jxl-effort", .integer, imgproxy: ["IMGPROXY_JXL_EFFORT"])
    static let enforceWebP = Setting<Bool>("enforce-webp", .boolean, imgproxy: ["IMGPROXY_ENFORCE_WEBP"])
    static let enforceAVIF = Setting<Bool>("enforce-avif", .boolean, imgproxy: ["IMGPROXY_ENFORCE_AVIF"])

    // Fallback image
    static let fallbackImageData = Setting<String>(
        "fallback-image-data", .text, imgproxy: ["IMGPROXY_FALLBACK_IMAGE_DATA"])
    static let fallbackImagePath = Setting<String>(
        "fallback-image-path", .text, imgproxy: ["IMGPROXY_FALLBACK_IMAGE_PATH"])
    static let fallbackImageURL = Setting<String>(
        "fallback-image-url", .text, imgproxy: ["IMGPROXY_FALLBACK_IMAGE_URL"])
    static let fallbackImageHTTPCode = Setting<Int>(
        "fallback-image-http-code", .integer, imgproxy: ["IMGPROXY_FALLBACK_IMAGE_HTTP_CODE"])
    static let fallbackImageTTL = Setting<Int>(
        "fallback-image-ttl", .integer, imgproxy: ["IMGPROXY_FALLBACK_IMAGE_TTL"])

    /// The settings of this extension, for ``all``.
    static let parity: [any SettingVariables] = [
        allowSecurityOptions, allowedProcessingOptions, onlyPresets, skipProcessingFormats, stripMetadata,
        keepCopyright, stripColorProfile, autoRotate, enforceThumbnail, returnAttachment, maxAnimationFrameResolution,
        maxClients, pathPrefix, logFormat, quality, formatQuality, jpegProgressive, pngInterlaced, pngQuantize,
        pngQuantizationColors, webpCompression, webpEffort, webpPreset, avifSpeed, jxlEffort, enforceWebP, enforceAVIF,
        fallbackImageData, fallbackImagePath, fallbackImageURL, fallbackImageHTTPCode, fallbackImageTTL,
    ]
}
