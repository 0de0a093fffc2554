import CTIFF
import Foundation

/// The metadata a TIFF file carries as libvips reads and writes it: the XMP packet (`XMLPacket`, tag 700) and the
/// IPTC-IIM datasets (`RichTIFFIPTC`, tag 33723). libvips reads no EXIF from a TIFF and writes none to one, and
/// neither does this library.
///
/// The IPTC is carried on an ``Image`` as a JPEG carries it, Photoshop image resources (``Image/iptc``): the datasets
/// of a TIFF become resource 0x0404, and resource 0x0404 is what a TIFF is given back.
enum TIFFMetadata {
    /// The XMP packet and the IPTC (as Photoshop image resources) of the open directory of `handle`, each `nil`
    /// unless `options` keep metadata, when it is missing, empty or over the size the library keeps.
    static func read(_ handle: OpaquePointer, options: DecodingOptions) -> (xmp: Data?, iptc: Data?) {
        guard options.keepsMetadata else { return (nil, nil) }
        var count: UInt32 = 0
        var data: UnsafeRawPointer?
        var xmp: Data?
        if wi_tiff_get_counted(handle, UInt32(TIFFTAG_XMLPACKET), &count, &data) == 1, let data, count > 0,
            Int(count) <= XMPMetadata.maxSize
        {
            xmp = Data(bytes: data, count: Int(count))
        }
        var iptc: Data?
        let unit = iptcUnit(handle)
        if wi_tiff_get_counted(handle, UInt32(TIFFTAG_RICHTIFFIPTC), &count, &data) == 1, let data, count > 0,
            Int(count) <= IPTCMetadata.maxSize / unit
        {
            var bytes = [UInt8](UnsafeRawBufferPointer(start: data, count: Int(count) * unit))
            if unit == 4, TIFFIsByteSwapped(handle) != 0 {
                // libtiff swapped each 32-bit value to the host's order: back to the order the bytes were stored in.
                for start in stride(from: 0, to: bytes.count, by: 4) { bytes[start..<(start + 4)].reverse() }
            }
            iptc = IPTCMetadata.resources(iim: bytes)
        }
        return (xmp, iptc)
    }

    /// Sets the XMP packet and the IPTC datasets of `resources` on the directory being written; `false` when libtiff
    /// refuses a field. Resources without IPTC write none.
    static func write(xmp: Data?, iptc resources: Data?, to handle: OpaquePointer) -> Bool {
        var written = true
        if let xmp, !xmp.isEmpty, let count = UInt32(exactly: xmp.count) {
            written =
                xmp.withUnsafeBytes {
                    wi_tiff_set_counted(handle, UInt32(TIFFTAG_XMLPACKET), count, $0.baseAddress)
                } == 1
        }
        if let resources, let found = IPTCMetadata.resource(IPTCMetadata.iptcResource, in: [UInt8](resources)),
            !found.isEmpty
        {
            // libtiff counts the tag in 32-bit values (libtiff 3, and libvips still writes it so) or in bytes (4.x):
            // the datasets are padded to a multiple of 4 bytes either way.
            var iim = Array(found)
            iim += [UInt8](repeating: 0, count: (4 - iim.count % 4) % 4)
            let count = UInt32(iim.count / iptcUnit(handle))
            written =
                written
                && iim.withUnsafeBytes {
                    wi_tiff_set_counted(handle, UInt32(TIFFTAG_RICHTIFFIPTC), count, $0.baseAddress)
                } == 1
        }
        return written
    }

    /// The bytes of one value of `RichTIFFIPTC` as the system's libtiff defines the tag: 4 where it is `LONG`, else 1.
    private static func iptcUnit(_ handle: OpaquePointer) -> Int {
        guard let field = TIFFFieldWithTag(handle, UInt32(TIFFTAG_RICHTIFFIPTC)) else { return 1 }
        return TIFFFieldDataType(field) == TIFF_LONG ? 4 : 1
    }
}
