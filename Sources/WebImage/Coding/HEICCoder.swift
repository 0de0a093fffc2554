import CHEIF
import Foundation

/// HEIC (HEIF with HEVC) decoding with libheif: the primary image, with alpha, upright.
///
/// libheif applies the container's transformations (`clap`, `irot`, `imir`) while decoding, so pixels come out
/// upright and sizes are reported upright (``ImageInfo/orientation`` is `.up`); EXIF orientation inside a HEIF file
/// is ignored, as the HEIF specification and browsers do. When ``DecodingOptions/targetSize`` is set and the file
/// carries a thumbnail that still covers it, the thumbnail is decoded instead of the full image. An ICC profile in
/// `colr` is converted to sRGB unless ``DecodingOptions/keepsColorProfile`` is set. Higher bit depths are reduced to
/// 8 bits. Encoding is not offered.
public struct HEICCoder: ImageCoding {
    /// Creates the coder.
    public init() {}

    public func canDecode(_ format: ImageFormat) -> Bool { format == .heic }

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
            let pixels = try image.decodeRGBA(color: color)
            return Image(
                frames: [ImageFrame(pixels: pixels)], format: .heic, isOpaque: image.hasAlpha ? nil : true,
                colorProfile: color.keptProfile)
        }
    }
}
