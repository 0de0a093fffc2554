/// How to decode one image.
public struct DecodingOptions: Sendable, Hashable {
    /// Decode no larger than needed to cover this size (a thumbnail).
    ///
    /// Decoders that can scale while decoding (JPEG's DCT scaling, WebP's decoder scaling) pick the smallest scale
    /// whose result still covers `targetSize` in both dimensions, keeping the aspect ratio; the result is then at
    /// least `targetSize` and is resampled to it by a transformer. `nil` decodes at full size.
    public var targetSize: PixelSize?
    /// Shrink on load by this factor, as libvips' loaders do, instead of by ``targetSize``: a JPEG by the DCT scale
    /// 1/8, 1/4 or 1/2 (the largest of 8, 4 and 2 not above the factor; each side rounded up), a WebP still to each
    /// side divided by the factor, rounded to the nearest (half to even). Other decoders, and factors below 2 for a
    /// JPEG or not above 1 for a WebP, ignore it and follow ``targetSize``. `nil` by default.
    ///
    /// For a caller that must know the decoded size from the source size alone (imgproxy's scale on load).
    public var shrinkFactor: Double?
    /// Decode only the first frame of an animation.
    public var firstFrameOnly: Bool
    /// Apply the EXIF orientation so that pixels come out upright. Default: `true`.
    public var appliesOrientation: Bool
    /// Size limits checked from the header before allocating.
    public var limits: DecodingLimits
    /// Keep the pixels in the colour space of an embedded ICC profile and carry the profile on the image
    /// (``Image/colorProfile``), instead of converting them to sRGB. Default: `false`.
    ///
    /// CMYK images are converted to RGB through their profile either way.
    public var keepsColorProfile: Bool
    /// Keep the source's EXIF block on the image (``Image/exif``), for encoders asked to embed it. Default: `false`.
    public var keepsMetadata: Bool
    /// Convert PNGs that describe their colours only with `gAMA` and `cHRM` (no `iCCP`, no `sRGB`) to sRGB, as
    /// browsers and Apple's ImageIO do. Default: `true`, so that a PNG shows as a browser shows it. `false` takes such
    /// samples for sRGB, as libpng, libvips and so imgproxy do (`webimage serve` turns it off unless `--png-gamma`).
    public var appliesPNGGamma: Bool
    /// Decode a HEIF file's (HEIC or AVIF) embedded thumbnail instead of its primary image, whatever ``targetSize``
    /// is, when it has one (imgproxy's `enforce_thumbnail`). Default: `false`. Other formats ignore it.
    public var prefersThumbnail: Bool
    /// Keep more than 8 bits per sample where the source has them: a still 16-bit PNG, a TIFF of 16-bit or 32-bit
    /// unsigned or 32-bit float samples (RGB or grey, chunky; floats as linear light), a still 10- or 12-bit AVIF or
    /// HEIC and their 10- or 12-bit thumbnails (scaled to 16 bits), and a still JPEG XL of more than 8 bits decode to
    /// frames with ``ImageFrame/deepPixels`` beside their 8-bit rounding; a profile to apply is applied at 16 bits
    /// (an RGB one to the colours, a grey one to grey levels). Default: `false`. Other formats, and the frames of
    /// animations (never written at more than 8 bits by the server, as by imgproxy), ignore it.
    public var keepsHighBitDepth: Bool

    /// Creates options; by default a full-size decode of every frame, upright, with the default limits.
    public init(
        targetSize: PixelSize? = nil, firstFrameOnly: Bool = false, appliesOrientation: Bool = true,
        limits: DecodingLimits = .default, keepsColorProfile: Bool = false,
        keepsMetadata: Bool = false, appliesPNGGamma: Bool = true, prefersThumbnail: Bool = false,
        shrinkFactor: Double? = nil, keepsHighBitDepth: Bool = false
    ) {
        self.keepsHighBitDepth = keepsHighBitDepth
        self.shrinkFactor = shrinkFactor
        self.prefersThumbnail = prefersThumbnail
        self.targetSize = targetSize
        self.firstFrameOnly = firstFrameOnly
        self.appliesOrientation = appliesOrientation
        self.limits = limits
        self.keepsColorProfile = keepsColorProfile
        self.keepsMetadata = keepsMetadata
        self.appliesPNGGamma = appliesPNGGamma
    }

    /// Full-size decode of every frame with the default limits, converted to sRGB.
    public static let `default` = DecodingOptions()
}
