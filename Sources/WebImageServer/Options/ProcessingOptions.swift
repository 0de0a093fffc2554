import Foundation
import WebImage

/// Everything a URL asks of one image, after presets: imgproxy's processing options with their defaults.
///
/// Each option is one entry of `OptionTable`: its names, how its arguments set these fields, how the canonical URL
/// writes them and whether they change the result. ``canonicalPath(source:)`` and ``cacheIdentity`` are derived
/// from the table, so two URLs that mean the same image share one cache entry, and two that do not never do.
public struct ProcessingOptions: Sendable, Hashable {
    /// How the image fits the requested size.
    public var resizingType: ResizingType = .fit
    /// Requested width in pixels; 0 = derived from the height (or the source).
    public var width = 0
    /// Requested height in pixels; 0 = derived from the width (or the source).
    public var height = 0
    /// The least width of the result in pixels (imgproxy's `min-width`): it is scaled up to it when smaller; 0 = none.
    public var minWidth = 0
    /// The least height of the result (imgproxy's `min-height`), as ``minWidth``.
    public var minHeight = 0
    /// Horizontal zoom (imgproxy's `zoom`): multiplies the requested size and the scale, after the fit.
    public var zoomWidth = 1.0
    /// Vertical zoom, as ``zoomWidth``.
    public var zoomHeight = 1.0
    /// Device pixel ratio: multiplies the requested size.
    public var dpr = 1.0
    /// Whether the image may get larger than the source.
    public var enlarge = false
    /// Whether the result is placed on a canvas of the requested size.
    public var extend = false
    /// Where the image sits on the extended canvas.
    public var extendGravity = GravityOption.center
    /// Whether the result is placed on a canvas of the requested aspect ratio (imgproxy's `extend_aspect_ratio`).
    public var extendAspectRatio = false
    /// Where the image sits on the aspect-ratio canvas.
    public var extendAspectRatioGravity = GravityOption.center
    /// Where `fill` crops.
    public var gravity = GravityOption.center
    /// Crop width before resizing: pixels when at least 1, a fraction of the source below that, 0 = none.
    public var cropWidth = 0.0
    /// Crop height, as ``cropWidth``.
    public var cropHeight = 0.0
    /// Where the crop sits; `nil` = the same as ``gravity``.
    public var cropGravity: GravityOption?
    /// The border removed from the source before anything else (imgproxy's `trim`); `nil` = none.
    public var trim: TrimOption?
    /// Transparent (or ``background``) pixels added around the result, in CSS pixels (scaled by the DPR).
    public var padding = Padding()
    /// Clockwise rotation in degrees, a multiple of 90, normalised to 0, 90, 180 or 270.
    public var rotate = 0
    /// Whether the image is mirrored left-right, after rotation.
    public var flipHorizontal = false
    /// Whether the image is mirrored top-bottom, after rotation.
    public var flipVertical = false
    /// Background for flattening transparency (and for the extended canvas when the output has no alpha).
    public var background: RGBA?
    /// Gaussian blur sigma; 0 = none.
    public var blur = 0.0
    /// Sharpen sigma; 0 = none.
    public var sharpen = 0.0
    /// The side of the blocks the image is pixelated into, after scaling (imgproxy's `pixelate`); 0 = none (1, which
    /// changes nothing, is stored as 0).
    public var pixelate = 0
    /// How the server's watermark image is laid over the result (imgproxy's `watermark`); off by default.
    public var watermark = WatermarkOption()
    /// Output quality 1 to 100; 0 = the server's default.
    public var quality = 0
    /// Per-format quality.
    public var formatQuality: [ImageFormat: Int] = [:]
    /// The requested output format; `nil` = chosen by the server.
    public var format: ImageFormat?
    /// Whether metadata is removed (results never carry any: the encoders write none).
    public var stripMetadata = true
    /// Whether an embedded ICC profile is converted to sRGB and left out of the result (imgproxy's
    /// `strip_color_profile`, on by default). Off, the pixels stay in the source's colour space and the result
    /// carries its profile, where the output format has room for one (JPEG, PNG, WebP, AVIF; not GIF).
    public var stripColorProfile = true
    /// Whether a high-bit-depth source keeps more than 8 bits per channel in a PNG, TIFF, AVIF or JPEG XL result
    /// (imgproxy's `preserve_hdr`, default `IMGPROXY_PRESERVE_HDR`, off). Part of the cache identity; the pixel
    /// pipeline is 8-bit, so today every result has 8 bits per channel either way (README, "Colour and HDR").
    public var preserveHDR = false
    /// Whether the EXIF orientation is applied.
    public var autoRotate = true
    /// Whether the copyright and author survive ``stripMetadata`` (imgproxy's `keep_copyright`, on by default): the
    /// EXIF `Copyright` and `Artist` tags, the XMP rights properties and (in JPEG) the IPTC By-line, Credit and
    /// Copyright Notice are written alone (`EncodingOptions.keepsCopyright`).
    public var keepCopyright = true
    /// Whether a HEIC or AVIF source's embedded thumbnail is decoded instead of the full image, when it has one
    /// (imgproxy's `enforce_thumbnail`).
    public var enforceThumbnail = false
    /// The most bytes the result may take (imgproxy's `max_bytes`): a JPEG, WebP or AVIF result is encoded again at
    /// lower qualities until it fits, down to quality 10; 0 = no limit.
    public var maxBytes = 0
    /// Source formats answered as they are, unprocessed, when the URL names no other format (imgproxy's
    /// `skip_processing`, added to the server's `--skip-processing-formats`).
    public var skipProcessingFormats: Set<ImageFormat> = []
    /// Whether the source is answered as it is, without processing or the result cache (imgproxy's `raw`); the
    /// source limits and address rules still apply.
    public var raw = false
    /// The security limits of this request, each replacing the server's own (imgproxy's security options, accepted
    /// only when the server allows them); `nil` = the server's.
    public var security = SecurityOverrides()
    /// Changes the cache identity only.
    public var cacheBuster = ""
    /// Unix time after which the URL answers 404; `nil` = never.
    public var expires: Int?
    /// The file name (without extension) for `Content-Disposition`; empty = the source's stem.
    public var filename = ""
    /// `Content-Disposition: attachment` instead of `inline`.
    public var returnAttachment = false
    /// Presets applied, in order, for logs and tests.
    public var usedPresets: [String] = []

    /// The defaults.
    public init() {}

    /// The crop gravity in effect.
    public var effectiveCropGravity: GravityOption { cropGravity ?? gravity }

    /// A canonical text of every option that changes the result's pixels or encoding (not the response headers):
    /// the canonical segments of `OptionTable`'s entries that change the result, `cachebuster` and `format`
    /// included, so an option cannot change the result without changing this text.
    public var cacheIdentity: String {
        OptionTable.resultEntries.compactMap { $0.write(self) }.joined(separator: "/")
    }
}
