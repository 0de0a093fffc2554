import Foundation

/// Metadata with copyright fields among others, for the tests of imgproxy's `keep_copyright`: an EXIF block, an XMP
/// packet and IPTC (Photoshop image resources), each with fields that survive a copyright-only strip
/// (``keptTexts``) and fields that do not (``droppedTexts``).
public enum CopyrightSamples {
    /// Texts of the copyright fields: EXIF `Copyright`; XMP `dc:rights`, `dc:creator`, `xmpRights:WebStatement` and
    /// `Marked`, the Creative Commons licence (under the prefix `creativeCommons`); IPTC By-line, Credit, Copyright
    /// Notice.
    public static let keptTexts = [
        "ACME 2026", "Jane Doe", "acme.example/license", "xmpRights:Marked", "licenses/by/4.0", "ACME Credit",
    ]
    /// Texts of other fields: EXIF `Make`; XMP `dc:title`, `dc:subject`, `photoshop:City`, `photoshop:Credit`; IPTC
    /// Object Name and Caption.
    public static let droppedTexts = [
        "MakerCo", "Private title", "secret keyword", "Secret City", "Hidden credit", "Secret caption",
        "Object name",
    ]

    /// A little-endian TIFF structure whose first IFD has `Make` (MakerCo) and `Copyright` (ACME 2026).
    public static var exif: Data {
        var tiff: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0, 2, 0]
        let copyright = Array("(c) ACME 2026".utf8) + [0]
        let make = Array("MakerCo".utf8) + [0]
        let dataStart = 8 + 2 + 2 * 12 + 4
        tiff += [0x0F, 0x01, 2, 0, UInt8(make.count), 0, 0, 0, UInt8(dataStart), 0, 0, 0]
        tiff += [0x98, 0x82, 2, 0, UInt8(copyright.count), 0, 0, 0, UInt8(dataStart + make.count), 0, 0, 0]
        return Data(tiff + [0, 0, 0, 0] + make + copyright)
    }

    /// An XMP packet with rights properties (element and attribute forms, the Creative Commons namespace under an
    /// unusual prefix) and others.
    public static var xmp: Data {
        Data(
            """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/">
             <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <rdf:Description rdf:about=""
                xmlns:dc="http://purl.org/dc/elements/1.1/"
                xmlns:xmpRights="http://ns.adobe.com/xap/1.0/rights/"
                xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/"
                xmlns:creativeCommons="http://creativecommons.org/ns#"
                xmpRights:Marked="True"
                photoshop:City="Secret City">
               <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Private title</rdf:li></rdf:Alt></dc:title>
               <dc:rights><rdf:Alt><rdf:li xml:lang="x-default">&#169; ACME 2026</rdf:li></rdf:Alt></dc:rights>
               <dc:creator><rdf:Seq><rdf:li>Jane Doe</rdf:li></rdf:Seq></dc:creator>
               <dc:subject><rdf:Bag><rdf:li>secret keyword</rdf:li></rdf:Bag></dc:subject>
               <xmpRights:WebStatement>https://acme.example/license</xmpRights:WebStatement>
               <creativeCommons:license rdf:resource="https://creativecommons.org/licenses/by/4.0/"/>
               <photoshop:Credit>Hidden credit</photoshop:Credit>
              </rdf:Description>
             </rdf:RDF>
            </x:xmpmeta>
            <?xpacket end="w"?>
            """.utf8)
    }

    /// Photoshop image resources: a resolution resource, then the IPTC resource with the coded character set
    /// (record 1), the record version, Object Name, By-line (Jane Doe), Credit (ACME Credit), Copyright Notice
    /// ((c) ACME 2026) and Caption.
    public static var iptc: Data {
        func dataset(_ record: UInt8, _ number: UInt8, _ value: [UInt8]) -> [UInt8] {
            [0x1C, record, number, UInt8(value.count >> 8), UInt8(value.count & 0xFF)] + value
        }
        let iim =
            dataset(1, 90, [0x1B, 0x25, 0x47]) + dataset(2, 0, [0, 4]) + dataset(2, 5, Array("Object name".utf8))
            + dataset(2, 80, Array("Jane Doe".utf8)) + dataset(2, 110, Array("ACME Credit".utf8))
            + dataset(2, 116, Array("(c) ACME 2026".utf8)) + dataset(2, 120, Array("Secret caption".utf8))
        func resource(_ id: Int, name: [UInt8], _ data: [UInt8]) -> [UInt8] {
            var block = Array("8BIM".utf8) + [UInt8(id >> 8), UInt8(id & 0xFF), UInt8(name.count)] + name
            if (name.count + 1) % 2 == 1 { block.append(0) }
            block += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: data.count >> $0) } + data
            if data.count % 2 == 1 { block.append(0) }
            return block
        }
        return Data(
            resource(0x03ED, name: Array("res".utf8), [UInt8](repeating: 1, count: 16))
                + resource(0x0404, name: [], iim))
    }
}
