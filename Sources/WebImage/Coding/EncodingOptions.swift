/// How to encode one image.
public struct EncodingOptions: Sendable, Hashable {
    /// Quality for lossy formats, 0 to 100. Default: 80.
    public var quality: Int
    /// Encode WebP losslessly. Default: `false`.
    public var lossless: Bool
    /// Encode only the first frame, even where the format can animate.
    public var firstFrameOnly: Bool
    /// How much time the encoder may spend for smaller files, where the format offers the choice: 0 (slowest,
    /// smallest) to 10 (fastest). `nil` uses the format's measured default (AVIF: ``AVIFCoder/defaultSpeed``).
    public var speed: Int?
    /// Embed the image's ICC profile (``Image/colorProfile``) and keep its pixels as they are. Default: `false`,
    /// which converts such pixels to sRGB and writes no profile (the smallest files; sRGB is what browsers assume).
    public var embedsColorProfile: Bool
    /// Write the image's EXIF block (``Image/exif``): JPEG `APP1`, PNG `eXIf`, WebP `EXIF`, AVIF `Exif` item; its
    /// XMP packet (``Image/xmp``): JPEG `APP1`, PNG `iTXt`, WebP `XMP `, AVIF `mime` item; and its IPTC
    /// (``Image/iptc``): JPEG `APP13`.
    /// Default: `false`, which strips it (imgproxy's `strip_metadata`, on by default). GIF has no place for it.
    public var embedsMetadata: Bool
    /// Without ``embedsMetadata``, still write the image's copyright fields, as imgproxy's `keep_copyright` keeps
    /// them: the EXIF `Artist` and `Copyright` tags in an EXIF block of their own, the XMP rights properties
    /// (`dc:rights`, `dc:creator`, `dc:contributor`, `dc:publisher`, `xmpRights:*`, `cc:*`) in a packet of their own,
    /// and (JPEG only) the IPTC By-line, Credit and Copyright Notice. Default: `false`.
    public var keepsCopyright: Bool
    /// Write a progressive JPEG (several scans, coarse to fine) or an interlaced PNG (Adam7), which a browser can
    /// show before the last byte arrives (imgproxy's `IMGPROXY_JPEG_PROGRESSIVE` and `IMGPROXY_PNG_INTERLACED`).
    /// Default: `false`. Other formats ignore it.
    public var progressive: Bool
    /// Reduce a PNG to a palette of at most this many colours, 2 to 256, with libimagequant (imgproxy's
    /// `IMGPROXY_PNG_QUANTIZE` and `IMGPROXY_PNG_QUANTIZATION_COLORS`), dithered, at its best quality (PNG has no
    /// quality setting). `nil` (the default) keeps every colour. Animated PNGs and other formats ignore it.
    public var paletteColors: Int?
    /// Encode WebP losslessly after libwebp's near-lossless preprocessing, which gives up some precision for a
    /// smaller file; the quality is the preprocessing level (100 = none). Default: `false`. Wins over ``lossless``.
    public var nearLossless: Bool
    /// libwebp's method for WebP, 0 (fastest) to 6 (smallest files), as libvips' and imgproxy's WebP effort
    /// (`IMGPROXY_WEBP_EFFORT`). `nil` (the default) keeps libwebp's default, 4. Other formats ignore it.
    public var webpEffort: Int?
    /// libwebp's preset for WebP (imgproxy's `IMGPROXY_WEBP_PRESET`). Default ``WebPPreset/default``. Other formats
    /// ignore it.
    public var webpPreset: WebPPreset

    /// Creates options.
    public init(
        quality: Int = 80, lossless: Bool = false, firstFrameOnly: Bool = false, speed: Int? = nil,
        embedsColorProfile: Bool = false, embedsMetadata: Bool = false, keepsCopyright: Bool = false,
        progressive: Bool = false, paletteColors: Int? = nil, nearLossless: Bool = false, webpEffort: Int? = nil,
        webpPreset: WebPPreset = .default
    ) {
        self.webpEffort = webpEffort
        self.webpPreset = webpPreset
        self.keepsCopyright = keepsCopyright
        self.progressive = progressive
        self.paletteColors = paletteColors
        self.nearLossless = nearLossless
        self.quality = quality
        self.lossless = lossless
        self.firstFrameOnly = firstFrameOnly
        self.speed = speed
        self.embedsColorProfile = embedsColorProfile
        self.embedsMetadata = embedsMetadata
    }

    /// Quality 80, lossy where the format allows, every frame, sRGB without a profile.
    public static let `default` = EncodingOptions()
}
