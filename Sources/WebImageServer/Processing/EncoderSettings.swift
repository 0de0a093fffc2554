import WebImage

/// How the server encodes results, whatever the URL asks: the default qualities and each encoder's settings
/// (imgproxy's `IMGPROXY_QUALITY`, `IMGPROXY_FORMAT_QUALITY`, `IMGPROXY_JPEG_PROGRESSIVE`, `IMGPROXY_PNG_INTERLACED`,
/// `IMGPROXY_PNG_QUANTIZE`, `IMGPROXY_PNG_QUANTIZATION_COLORS`, `IMGPROXY_WEBP_COMPRESSION`, `IMGPROXY_WEBP_EFFORT`,
/// `IMGPROXY_WEBP_PRESET`, `IMGPROXY_AVIF_SPEED`, `IMGPROXY_JXL_EFFORT`), with imgproxy's defaults.
public struct EncoderSettings: Sendable, Hashable {
    /// The quality when neither the URL nor ``formatQuality`` sets one. Default 80, as imgproxy's.
    public var quality = 80
    /// The quality of each format when the URL sets none. Default imgproxy's: WebP 79, AVIF 63, JPEG XL 77.
    public var formatQuality: [ImageFormat: Int] = [.webp: 79, .avif: 63, .jxl: 77]
    /// Progressive JPEGs. Default off.
    public var jpegProgressive = false
    /// Interlaced (Adam7) PNGs. Default off.
    public var pngInterlaced = false
    /// PNGs reduced to a palette of at most ``pngQuantizationColors`` colours. Default off.
    public var pngQuantize = false
    /// The most colours of a quantized PNG, 2 to 256. Default 256.
    public var pngQuantizationColors = 256
    /// How WebP compresses. Default lossy.
    public var webpCompression = WebPCompression.lossy
    /// libwebp's method, 1 (fastest) to 6 (smallest files), imgproxy's range and libvips' WebP effort. Default 4, as
    /// imgproxy's (and libwebp's).
    public var webpEffort = 4
    /// libwebp's preset. Default `WebPPreset.default`, as imgproxy's.
    public var webpPreset = WebPPreset.default
    /// The AVIF encoder's speed, 0 (slowest, smallest) to 9 (imgproxy's range). Default 8, as imgproxy's. imgproxy
    /// hands libvips the effort `9 - speed`, which libvips hands libheif as the speed `9 - effort`, and libheif's
    /// libaom encoder takes it as libaom's `cpu-used`: the same number libavif's speed sets, so it is passed as is.
    public var avifSpeed = 8
    /// libjxl's effort, 1 (fastest) to 9 (smallest files), imgproxy's range. Default 4, as imgproxy's (the library's
    /// own default, without this server, is effort 3: `JXLCoder.defaultSpeed`).
    public var jxlEffort = 4

    /// imgproxy's defaults.
    public init() {}

    /// The quality of a `format` result for `options`, in imgproxy's order: the URL's `quality`, then its
    /// `format_quality` for the format, then ``formatQuality``, then ``quality``.
    func quality(for format: ImageFormat, options: ProcessingOptions) -> Int {
        if options.quality > 0 { return options.quality }
        if let quality = options.formatQuality[format], quality > 0 { return quality }
        if let quality = formatQuality[format], quality > 0 { return quality }
        return quality
    }

    /// The library's encoding options for a `format` result at `quality`.
    func encoding(for format: ImageFormat, quality: Int) -> EncodingOptions {
        var options = EncodingOptions(quality: quality)
        switch format {
        case .jpeg: options.progressive = jpegProgressive
        case .png:
            options.progressive = pngInterlaced
            options.paletteColors = pngQuantize ? pngQuantizationColors : nil
        case .webp:
            options.lossless = webpCompression == .lossless
            options.nearLossless = webpCompression == .nearLossless
            options.webpEffort = webpEffort
            options.webpPreset = webpPreset
        case .avif: options.speed = avifSpeed
        case .jxl: options.speed = Self.jxlSpeed(effort: jxlEffort)
        default: break
        }
        return options
    }

    /// The library's encoder speed that gives libjxl's `effort` (`JXLCoder.effort(forSpeed:)`), 1 to 9 (clamped).
    static func jxlSpeed(effort: Int) -> Int {
        let effort = min(max(effort, 1), 9)
        return (0...10).first { JXLCoder.effort(forSpeed: $0) == effort } ?? JXLCoder.defaultSpeed
    }

    /// Throws for the first setting outside its range.
    func validate() throws(ImageServerConfigurationError) {
        try ImageServerConfigurationError.check(quality, in: 1...100, "quality", "must be between 1 and 100")
        for (format, value) in formatQuality {
            try ImageServerConfigurationError.check(
                value, in: 1...100, "format-quality", "for \(format.name) must be between 1 and 100")
        }
        try ImageServerConfigurationError.check(
            pngQuantizationColors, in: 2...256, "png-quantization-colors", "must be between 2 and 256")
        try ImageServerConfigurationError.check(webpEffort, in: 1...6, "webp-effort", "must be between 1 and 6")
        try ImageServerConfigurationError.check(avifSpeed, in: 0...9, "avif-speed", "must be between 0 and 9")
        try ImageServerConfigurationError.check(jxlEffort, in: 1...9, "jxl-effort", "must be between 1 and 9")
    }
}

/// How WebP results are compressed (imgproxy's `IMGPROXY_WEBP_COMPRESSION`).
public struct WebPCompression: Sendable, Hashable, CustomStringConvertible {
    /// imgproxy's name: `lossy`, `near_lossless` or `lossless`.
    public let name: String

    /// Lossy, at the quality.
    public static let lossy = WebPCompression(name: "lossy")
    /// Lossless after near-lossless preprocessing, at the quality as its level.
    public static let nearLossless = WebPCompression(name: "near_lossless")
    /// Lossless.
    public static let lossless = WebPCompression(name: "lossless")

    /// The compression imgproxy names `name`; `nil` for another name.
    public init?(named name: String) {
        guard let known = [Self.lossy, .nearLossless, .lossless].first(where: { $0.name == name.lowercased() }) else {
            return nil
        }
        self = known
    }

    private init(name: String) { self.name = name }

    public var description: String { name }
}
