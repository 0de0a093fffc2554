import Foundation

/// The EXIF block a decoder keeps on an ``Image`` when ``DecodingOptions/keepsMetadata`` is set, and the encoders'
/// way of writing it back.
enum EXIFMetadata {
    /// The largest block kept: what fits one JPEG `APP1` segment after its `Exif\0\0` prefix.
    static let maxSize = 65_533 - 6
    /// The `Exif\0\0` prefix of a JPEG `APP1` segment (and of some WebP and PNG writers' blocks).
    static let prefix: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]

    /// The block to keep from `exif` (a TIFF structure, with or without the prefix): `nil` unless `options` keep
    /// metadata, or when it is empty or too large. When the decoder turns pixels upright (from EXIF, from a HEIF
    /// container's `irot`/`imir`, or from a JPEG XL codestream; the last two take precedence over EXIF), the
    /// orientation tag is rewritten to 1, so that a viewer of a re-encoded file does not turn the upright pixels a
    /// second time.
    static func kept(_ exif: UnsafeRawBufferPointer?, options: DecodingOptions) -> Data? {
        guard options.keepsMetadata, let exif else { return nil }
        let tiff = EXIFReader.withoutPrefix(exif)
        guard tiff.count >= 8, tiff.count <= maxSize else { return nil }
        var kept = Data(tiff)
        if options.appliesOrientation, let field = EXIFReader.orientationField(inTIFF: tiff) {
            let (high, low) = field.littleEndian ? (field.offset + 1, field.offset) : (field.offset, field.offset + 1)
            kept[kept.startIndex + high] = 0
            kept[kept.startIndex + low] = 1
        }
        return kept
    }

    /// The EXIF data of a HEIF `Exif` item or a JPEG XL `Exif` box: after a 4-byte big-endian offset, from that offset
    /// (where the TIFF header starts; 0, or 6 past an `Exif\0\0` prefix); `nil` when the offset points past the end.
    static func tiff(afterOffsetIn block: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard block.count >= 4 else { return nil }
        let offset = block.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        guard offset <= block.count - 4 else { return nil }
        return UnsafeRawBufferPointer(rebasing: block[(4 + offset)...])
    }

    /// `jpeg` with `exif` in an `APP1` segment right after `SOI` and any `APP0`.
    static func jpeg(_ jpeg: Data, exif: Data) throws(WebImageError) -> Data {
        try ICCProfileWriter.insertingAPP1(prefix: prefix, payload: exif, into: jpeg, what: "an EXIF block")
    }
}
