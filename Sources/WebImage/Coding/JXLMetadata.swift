import CJXL
import Foundation

/// The EXIF block and XMP packet of a JPEG XL file, read from its container's `Exif` and `xml ` boxes (plain, or
/// Brotli-compressed in `brob` boxes, as cjxl writes them when it recompresses a JPEG), wherever they stand beside
/// the codestream.
///
/// Read by libjxl in a pass of their own that asks for boxes only (no pixel is decoded), under the decoder's memory
/// budget; a box larger than ``EXIFMetadata/maxSize`` or ``XMPMetadata/maxSize`` allows is left out without being
/// decompressed further, as is metadata that does not read (the image still decodes). The first box of each kind
/// wins. A bare codestream has no boxes. The EXIF orientation is never applied: JPEG XL's orientation is the
/// codestream's, and the kept block's orientation tag is rewritten to 1 when that orientation is applied
/// (``EXIFMetadata/kept(_:options:)``).
struct JXLMetadata {
    /// The EXIF block (a TIFF structure), as ``EXIFMetadata/kept(_:options:)`` keeps it.
    var exif: Data?
    /// The XMP packet, as ``XMPMetadata/kept(_:options:)`` keeps it.
    var xmp: Data?

    init(exif: Data? = nil, xmp: Data? = nil) {
        (self.exif, self.xmp) = (exif, xmp)
    }

    /// The signature box that opens the container (a bare codestream opens with `FF 0A`).
    static let containerSignature: [UInt8] = [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]

    /// The largest `Exif` box content read: its 4-byte offset, an optional `Exif\0\0` prefix and the largest block.
    static let maxEXIFBox = 4 + EXIFMetadata.prefix.count + EXIFMetadata.maxSize

    /// The metadata of `bytes` that `options` keep: nothing unless they keep metadata.
    static func read(_ bytes: UnsafeRawBufferPointer, options: DecodingOptions, memoryCap: Int) -> JXLMetadata {
        guard options.keepsMetadata, bytes.starts(with: containerSignature) else { return JXLMetadata() }
        let boxes = boxes(bytes, memoryCap: memoryCap)
        return JXLMetadata(
            exif: boxes.exif.flatMap { box in
                box.withUnsafeBytes { EXIFMetadata.kept(EXIFMetadata.tiff(afterOffsetIn: $0), options: options) }
            },
            xmp: boxes.xmp.flatMap { box in box.withUnsafeBytes { XMPMetadata.kept($0, options: options) } })
    }

    /// The length of the boxes of `bytes` that are whole, from the start: 32-bit sizes, 64-bit ones (size 1) and a
    /// last box that runs to the end (size 0).
    static func wholeBoxes(_ bytes: UnsafeRawBufferPointer) -> Int {
        var offset = 0
        while bytes.count - offset >= 8 {
            let size32 = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let size: Int
            switch size32 {
            case 0: return bytes.count
            case 1:
                guard bytes.count - offset >= 16 else { return offset }
                let size64 = bytes[offset + 8..<offset + 16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                guard size64 >= 16, size64 <= UInt64(bytes.count - offset) else { return offset }
                size = Int(size64)
            default:
                guard size32 >= 8, size32 <= bytes.count - offset else { return offset }
                size = size32
            }
            offset += size
        }
        return offset
    }

    /// The raw content of the first `Exif` and `xml ` boxes, decompressed, each within its bound.
    static func boxes(_ bytes: UnsafeRawBufferPointer, memoryCap: Int) -> (exif: Data?, xmp: Data?) {
        guard let budget = wi_jxl_budget_create(max(memoryCap, 0)) else { return (nil, nil) }
        defer { free(budget) }
        var manager = wi_jxl_budget_manager(budget)
        guard let raw = JxlDecoderCreate(&manager) else { return (nil, nil) }
        defer { JxlDecoderDestroy(raw) }
        guard JxlDecoderSubscribeEvents(raw, Int32(JXL_DEC_BOX.rawValue)) == JXL_DEC_SUCCESS,
            JxlDecoderSetDecompressBoxes(raw, Int32(JXL_TRUE)) == JXL_DEC_SUCCESS,
            JxlDecoderSetInput(raw, bytes.bindMemory(to: UInt8.self).baseAddress, wholeBoxes(bytes)) == JXL_DEC_SUCCESS
        else { return (nil, nil) }
        // Closed at the end of the last whole box: libjxl then ends with success rather than waiting for more, and a
        // box cut short is not reached (libjxl 0.7 would print "missing input" on stderr for it).
        JxlDecoderCloseInput(raw)
        let buffer = UnsafeMutableRawBufferPointer.allocate(
            byteCount: max(maxEXIFBox, XMPMetadata.maxSize), alignment: 1)
        defer { buffer.deallocate() }
        var found: (exif: Data?, xmp: Data?) = (nil, nil)
        /// The kind of the box being read into the buffer (true for EXIF), and the buffer's size for it.
        var reading: (isEXIF: Bool, size: Int)?
        /// Keeps what the buffer holds for the box being read, which is complete.
        func finish() {
            guard let box = reading else { return }
            let content = Data(buffer.prefix(box.size - JxlDecoderReleaseBoxBuffer(raw)))
            if box.isEXIF { found.exif = content } else { found.xmp = content }
            reading = nil
        }
        while found.exif == nil || found.xmp == nil {
            let status = JxlDecoderProcessInput(raw)
            switch status {
            case JXL_DEC_BOX:
                finish()
                var type = [CChar](repeating: 0, count: 4)
                guard JxlDecoderGetBoxType(raw, &type, Int32(JXL_TRUE)) == JXL_DEC_SUCCESS else { return found }
                let name = type.map { UInt8(bitPattern: $0) }
                let isEXIF = name == Array("Exif".utf8) && found.exif == nil
                let isXMP = name == Array("xml ".utf8) && found.xmp == nil
                guard isEXIF || isXMP else { continue }
                let size = isEXIF ? maxEXIFBox : XMPMetadata.maxSize
                guard
                    JxlDecoderSetBoxBuffer(raw, buffer.bindMemory(to: UInt8.self).baseAddress, size)
                        == JXL_DEC_SUCCESS
                else { return found }
                reading = (isEXIF, size)
            case JXL_DEC_BOX_NEED_MORE_OUTPUT:
                // Larger than kept: the rest of the box is skipped, not decompressed.
                _ = JxlDecoderReleaseBoxBuffer(raw)
                reading = nil
            case JXL_DEC_SUCCESS:
                finish()
                return found
            default:
                // An error, or a box cut short: what was read whole is kept.
                return found
            }
        }
        return found
    }
}
