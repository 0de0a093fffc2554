import Foundation

/// The XMP packet a decoder keeps on an ``Image`` when ``DecodingOptions/keepsMetadata`` is set, and the encoders'
/// way of writing it back: JPEG `APP1` after the `http://ns.adobe.com/xap/1.0/` namespace, PNG `iTXt` with the
/// keyword `XML:com.adobe.xmp`, WebP `XMP ` chunk, AVIF `mime` item (through libavif).
///
/// Only standard XMP is kept: a packet that fits one JPEG segment. A JPEG's extended XMP (a second packet split
/// over further segments, for large previews) and a compressed PNG `iTXt` are dropped.
enum XMPMetadata {
    /// The namespace and NUL that open a JPEG `APP1` segment holding XMP.
    static let jpegPrefix = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
    /// The largest packet kept: what fits one JPEG `APP1` segment after its prefix.
    static let maxSize = 65_533 - jpegPrefix.count
    /// The `iTXt` keyword of XMP in PNG.
    static let pngKeyword = "XML:com.adobe.xmp"

    /// The packet to keep from `xmp`: `nil` unless `options` keep metadata, or when it is empty or too large.
    static func kept(_ xmp: UnsafeRawBufferPointer?, options: DecodingOptions) -> Data? {
        guard options.keepsMetadata, let xmp, !xmp.isEmpty, xmp.count <= maxSize else { return nil }
        return Data(xmp)
    }

    /// The packet of a JPEG's standard-XMP `APP1` segment, if any.
    static func jpegPacket(_ jpeg: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        EXIFReader.jpegSegment(jpeg, where: { $0 == 0xE1 && $1.starts(with: jpegPrefix) }).map {
            UnsafeRawBufferPointer(rebasing: $0[jpegPrefix.count...])
        }
    }

    /// `jpeg` with `xmp` in an `APP1` segment right after `SOI` and any `APP0`.
    static func jpeg(_ jpeg: Data, xmp: Data) throws(WebImageError) -> Data {
        try ICCProfileWriter.insertingAPP1(prefix: jpegPrefix, payload: xmp, into: jpeg, what: "an XMP packet")
    }

    /// The packet of an uncompressed XMP `iTXt` payload: keyword, NUL, compression flag and method, language tag
    /// and NUL, translated keyword and NUL, then the text. `nil` for another keyword, a compressed or malformed one.
    static func pngPacket(_ payload: Data) -> Data? {
        let bytes = [UInt8](payload)
        let keyword = Array(pngKeyword.utf8)
        guard bytes.count > keyword.count + 2, bytes.starts(with: keyword + [0]), bytes[keyword.count + 1] == 0
        else { return nil }
        var offset = keyword.count + 3
        for _ in 0..<2 {
            guard let end = bytes[offset...].firstIndex(of: 0) else { return nil }
            offset = end + 1
        }
        return Data(bytes[offset...])
    }

    /// The `iTXt` payload that holds `xmp` uncompressed, with no language tag.
    static func pngPayload(_ xmp: Data) -> [UInt8] {
        Array(pngKeyword.utf8) + [0, 0, 0, 0, 0] + [UInt8](xmp)
    }
}
