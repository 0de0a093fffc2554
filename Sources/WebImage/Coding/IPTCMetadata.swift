import Foundation

/// The IPTC of a JPEG: the Photoshop image resources of its `APP13` segment (after `Photoshop 3.0\0`), where resource
/// 0x0404 holds the IPTC-IIM datasets. A decoder keeps them on an ``Image`` (``Image/iptc``) when
/// ``DecodingOptions/keepsMetadata`` is set; the JPEG encoder writes them back in an `APP13` with
/// ``EncodingOptions/embedsMetadata`` (libvips' `iptc-data`), and with ``EncodingOptions/keepsCopyright`` alone only
/// the copyright datasets (``copyright(_:)``, imgproxy's `stripPS3`). A TIFF's datasets (`RichTIFFIPTC`) are read
/// and written as resource 0x0404 (`TIFFMetadata`); other formats have no IPTC in libvips either.
package enum IPTCMetadata {
    /// The `APP13` prefix of Photoshop's image resources.
    static let prefix = Array("Photoshop 3.0\0".utf8)
    /// The largest block kept: what fits one JPEG `APP13` segment after its prefix.
    static let maxSize = 65_533 - prefix.count
    /// The image resource holding IPTC-IIM.
    package static let iptcResource = 0x0404
    /// The datasets of the application record (2) kept with the copyright: By-line (80), Credit (110) and Copyright
    /// Notice (116), as imgproxy keeps them; datasets of other records are kept too, as imgproxy does.
    static let copyrightDatasets: Set<UInt8> = [80, 110, 116]

    /// The image resources of a JPEG's first Photoshop `APP13` segment: `nil` unless `options` keep metadata, or when
    /// there is none, it is empty or too large.
    static func kept(_ jpeg: UnsafeRawBufferPointer, options: DecodingOptions) -> Data? {
        guard options.keepsMetadata,
            let payload = EXIFReader.jpegSegment(jpeg, where: { $0 == 0xED && $1.starts(with: prefix) })
        else { return nil }
        let resources = payload.dropFirst(prefix.count)
        guard !resources.isEmpty, resources.count <= maxSize else { return nil }
        return Data(resources)
    }

    /// `jpeg` with `resources` in an `APP13` segment right after `SOI` and any `APP0`.
    static func jpeg(_ jpeg: Data, resources: Data) throws(WebImageError) -> Data {
        let length = 2 + prefix.count + resources.count
        guard length <= 65_535 else {
            throw WebImageError(.encodingFailed, "IPTC of \(resources.count) bytes does not fit a JPEG")
        }
        var segment = Data([0xFF, 0xED, UInt8(length >> 8), UInt8(length & 0xFF)] + prefix)
        segment.append(resources)
        return try ICCProfileWriter.insertingJPEGSegments(segment, into: jpeg)
    }

    /// Image resources holding only an IPTC resource with the copyright datasets of `resources`' (imgproxy's
    /// `stripPS3`: every other resource, and every dataset of record 2 but By-line, Credit and Copyright Notice,
    /// removed); `nil` when none is left or the block is unreadable.
    static func copyright(_ resources: Data) -> Data? {
        guard let found = resource(iptcResource, in: [UInt8](resources)) else { return nil }
        let iim = Array(found)
        var kept: [UInt8] = []
        var offset = 0
        while offset + 5 <= iim.count, iim[offset] == 0x1C {
            let record = iim[offset + 1]
            let dataset = iim[offset + 2]
            var length = Int(iim[offset + 3]) << 8 | Int(iim[offset + 4])
            var header = 5
            if length & 0x8000 != 0 {
                // An extended dataset: the low bits count the bytes of the length that follows.
                let count = length & 0x7FFF
                guard count <= 4, offset + 5 + count <= iim.count else { return nil }
                length = iim[(offset + 5)..<(offset + 5 + count)].reduce(0) { $0 << 8 | Int($1) }
                header += count
            }
            let end = offset + header + length
            guard end <= iim.count else { return nil }
            if record != 2 || copyrightDatasets.contains(dataset) { kept += iim[offset..<end] }
            offset = end
        }
        guard !kept.isEmpty, kept.count <= maxSize - 12 else { return nil }
        var block = Array("8BIM".utf8) + [UInt8(iptcResource >> 8), UInt8(iptcResource & 0xFF), 0, 0]
        block += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: kept.count >> $0) }
        block += kept
        if kept.count % 2 == 1 { block.append(0) }
        return Data(block)
    }

    /// Image resources holding `iim` (IPTC-IIM datasets, a TIFF's `RichTIFFIPTC`) as resource 0x0404, up to the end
    /// of its last whole dataset (a TIFF pads them to 4 bytes); `nil` when no dataset is whole or the datasets are
    /// over ``maxSize``.
    static func resources(iim: [UInt8]) -> Data? {
        var end = 0
        while end + 5 <= iim.count, iim[end] == 0x1C {
            let length = Int(iim[end + 3]) << 8 | Int(iim[end + 4])
            // Extended datasets (the length's top bit set) are not read here: the datasets end before one.
            guard length & 0x8000 == 0, end + 5 + length <= iim.count else { break }
            end += 5 + length
        }
        guard end > 0, end <= maxSize - 13 else { return nil }
        var block = Array("8BIM".utf8) + [UInt8(iptcResource >> 8), UInt8(iptcResource & 0xFF), 0, 0]
        block += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: end >> $0) }
        block += iim[0..<end]
        if end % 2 == 1 { block.append(0) }
        return Data(block)
    }

    /// The data of the first resource `id` of Photoshop image resources, if they are readable up to it.
    package static func resource(_ id: Int, in resources: [UInt8]) -> ArraySlice<UInt8>? {
        var offset = 0
        while offset + 12 <= resources.count, resources[offset..<(offset + 4)].elementsEqual("8BIM".utf8) {
            let found = Int(resources[offset + 4]) << 8 | Int(resources[offset + 5])
            // The name: a Pascal string padded to an even length, its length byte included.
            let nameLength = Int(resources[offset + 6])
            let sizeAt = offset + 6 + nameLength + 1 + (nameLength % 2 == 0 ? 1 : 0)
            guard sizeAt + 4 <= resources.count else { return nil }
            let size = resources[sizeAt..<(sizeAt + 4)].reduce(0) { $0 << 8 | Int($1) }
            let start = sizeAt + 4
            guard size <= resources.count - start else { return nil }
            if found == id { return resources[start..<(start + size)] }
            offset = start + size + size % 2
        }
        return nil
    }
}
