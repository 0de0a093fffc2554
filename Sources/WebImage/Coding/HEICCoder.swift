import CHEIF
import Foundation

/// HEIC (HEIF with HEVC) decoding with libheif: the primary image, with alpha, upright.
///
/// libheif applies the container's transformations (`clap`, `irot`, `imir`) while decoding, so pixels come out
/// upright and sizes are reported upright (``ImageInfo/orientation`` is `.up`); EXIF orientation inside a HEIF file
/// is ignored, as the HEIF specification and browsers do (a kept EXIF block's orientation tag is set to 1). With
/// ``DecodingOptions/keepsMetadata``, the primary image's `Exif` item and XMP (`mime` item of type
/// `application/rdf+xml`) become ``Image/exif`` and ``Image/xmp``, each within one JPEG segment's size. When
/// ``DecodingOptions/targetSize`` is set and the file carries a thumbnail that still covers it, the thumbnail is
/// decoded instead of the full image. An ICC profile in `colr` is converted to sRGB unless
/// ``DecodingOptions/keepsColorProfile`` is set. Higher bit depths (10, 12 bits) are reduced to 8 bits, or kept at 16
/// (``ImageFrame/deepPixels``, scaled to the full 16-bit range) with ``DecodingOptions/keepsHighBitDepth``, also for a
/// thumbnail, with an RGB profile applied at 16 bits.
///
/// Encodes stills through libheif's HEVC encoder plugin (x265), when libheif has one here (``canEncode(_:)`` says so;
/// otherwise encoding throws ``WebImageError/Code/unsupportedFormat``): ``EncodingOptions/quality`` is libheif's
/// quality, ``EncodingOptions/speed`` picks x265's preset (0 `placebo` to 9 and 10 `ultrafast`, default
/// ``defaultSpeed``), ``EncodingOptions/lossless`` asks for lossless HEVC; an animation's first frame is written, with the EXIF block and
/// XMP packet when the options embed metadata (or the copyright).
public struct HEICCoder: ImageCoding {
    /// The encoder speed used when ``EncodingOptions/speed`` is `nil`: x265's `faster` preset, where the encode time
    /// stops falling on a 1080p photo (`docs/benchmarks.md`).
    public static let defaultSpeed = 6

    /// Creates the coder.
    public init() {}

    public func canDecode(_ format: ImageFormat) -> Bool { format == .heic }

    public func canEncode(_ format: ImageFormat) -> Bool { format == .heic && HEICEncoder.isAvailable }

    public func encode(_ image: Image, as format: ImageFormat, options: EncodingOptions) throws(WebImageError) -> Data {
        try HEICEncoder.encode(image, options: options)
    }

    public func info(of data: Data) throws(WebImageError) -> ImageInfo {
        try data.withImageBytes { bytes throws(WebImageError) in
            let file = try HEIFFile(bytes)
            let primary = try file.primaryImage()
            return ImageInfo(
                format: .heic, width: primary.size.width, height: primary.size.height, hasAlpha: primary.hasAlpha)
        }
    }

    public func decode(_ data: Data, options: DecodingOptions) throws(WebImageError) -> Image {
        try data.withImageBytes { bytes throws(WebImageError) in
            let file = try HEIFFile(bytes)
            let primary = try file.primaryImage()
            let image = try primary.thumbnail(covering: options.targetSize, any: options.prefersThumbnail) ?? primary
            let size = image.size
            try options.limits.checkFrame(width: size.width, height: size.height)
            let color = ColorHandling(profile: primary.iccProfile, options: options)
            let frame = try image.decodeFrame(color: color, options: options)
            let metadata = primary.keptMetadata(options: options)
            return Image(
                frames: [frame], format: .heic, isOpaque: image.hasAlpha ? nil : true,
                colorProfile: color.keptProfile, exif: metadata.exif, xmp: metadata.xmp)
        }
    }
}
