import Foundation

/// The embedded thumbnail of an AVIF file, which libavif does not expose but libheif reads (with its AV1 decoder
/// plugin, dav1d or libaom): for ``DecodingOptions/prefersThumbnail``, or as a shrink on load when one still covers
/// ``DecodingOptions/targetSize`` (as ``HEICCoder`` uses HEIC's).
enum HEIFThumbnail {
    /// The smallest thumbnail of the primary image of the HEIF file `bytes` (with ``DecodingOptions/prefersThumbnail``
    /// any, else one covering ``DecodingOptions/targetSize``), decoded upright to sRGB (or keeping its profile as
    /// `options` say), at 16 bits when it has more than 8 and `options` keep the high bit depth, with the primary image's EXIF and XMP as `options` keep them, and labelled `format`; `nil` when
    /// there is none, or when libheif cannot read the file or decode the thumbnail (the caller then decodes the
    /// primary image its own way).
    ///
    /// - Throws: ``WebImageError/Code/tooLarge`` when the thumbnail is over `options`' limits.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, options: DecodingOptions, format: ImageFormat
    ) throws(WebImageError) -> Image? {
        let file: HEIFFile
        do { file = try HEIFFile(bytes) } catch { return nil }
        let covering = options.prefersThumbnail ? nil : options.targetSize
        guard let primary = try? file.primaryImage(),
            let thumbnail = try? primary.thumbnail(covering: covering, any: options.prefersThumbnail)
        else { return nil }
        let size = thumbnail.size
        try options.limits.checkFrame(width: size.width, height: size.height)
        let color = ColorHandling(profile: primary.iccProfile, options: options)
        guard let frame = try? thumbnail.decodeFrame(color: color, options: options) else { return nil }
        let metadata = primary.keptMetadata(options: options)
        return Image(
            frames: [frame], format: format, isOpaque: thumbnail.hasAlpha ? nil : true,
            colorProfile: color.keptProfile, exif: metadata.exif, xmp: metadata.xmp)
    }
}
