import Foundation
import Testing
import WebImageTesting

@testable import WebImage

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// imgproxy's `keep_copyright` beyond EXIF: the XMP rights properties (`stripXMP`) and the IPTC copyright datasets
/// (`stripPS3`), kept alone when metadata is stripped, and IPTC carried through JPEG.
@Suite("Coding: copyright metadata (XMP rights, IPTC)")
struct CopyrightMetadataTests {
    static func text(_ data: Data?) -> String { data.map { String(decoding: $0, as: UTF8.self) } ?? "" }

    /// Whether `data` is well-formed XML, by Foundation's parser.
    static func isWellFormed(_ data: Data) -> Bool { XMLParser(data: data).parse() }

    @Test func theXMPRightsPropertiesAloneAreKeptWellFormed() throws {
        let packet = try #require(XMPCopyright.packet(from: CopyrightSamples.xmp))
        let text = Self.text(packet)
        for kept in ["ACME 2026", "Jane Doe", "acme.example/license", "xmpRights:Marked=\"True\"", "licenses/by/4.0"] {
            #expect(text.contains(kept), "\(kept)")
        }
        for dropped in ["Private title", "secret keyword", "Secret City", "Hidden credit", "photoshop"] {
            #expect(!text.contains(dropped), "\(dropped)")
        }
        #expect(text.contains("xmlns:creativeCommons=\"http://creativecommons.org/ns#\""), "its own prefix, declared")
        #expect(Self.isWellFormed(packet), "\(text)")
        #expect(XMPCopyright.packet(from: packet) == packet, "a kept packet keeps everything it has")
    }

    @Test func namespacesAreFoundByTheirURIs() throws {
        let xmp = Data(
            """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><r:RDF xmlns:r="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <r:Description xmlns:d='http://purl.org/dc/elements/1.1/' xmlns:dc="http://example.com/not-dc/"
             d:publisher='Pub &amp; Co'><d:rights>R</d:rights><dc:rights>not Dublin Core</dc:rights>
            <d:description>no</d:description></r:Description></r:RDF></x:xmpmeta>
            """.utf8)
        let text = Self.text(try #require(XMPCopyright.packet(from: xmp)))
        #expect(text.contains("d:publisher=\"Pub &amp; Co\"") && text.contains("<d:rights>R</d:rights>"))
        #expect(!text.contains("not Dublin Core") && !text.contains("description"))
        #expect(Self.isWellFormed(Data(text.utf8)), "\(text)")
        let none = Data(
            "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><dc:title/></x:xmpmeta>"
                .utf8)
        #expect(XMPCopyright.packet(from: none) == nil, "no rights property: no packet")
    }

    @Test func hostileXMPIsScannedInLinearTime() {
        for length in 0..<CopyrightSamples.xmp.count {
            _ = XMPCopyright.packet(from: CopyrightSamples.xmp.prefix(length))
        }
        let declarations = "<x:a xmlns:dc=\"http://purl.org/dc/elements/1.1/\">"
        for unit in ["<dc:rights a=\"", "<dc:rights>", " xmlns:a=\"", "<dc:creator/ ", "<a:b c:d='<"] {
            let hostile = Data((declarations + String(repeating: unit, count: 60_000 / unit.count)).utf8)
            let start = ContinuousClock.now
            _ = XMPCopyright.packet(from: hostile)
            #expect(ContinuousClock.now - start < .seconds(2), "\(unit)")
        }
    }

    @Test func theIPTCCopyrightDatasetsAloneAreKept() throws {
        let kept = try #require(IPTCMetadata.copyright(CopyrightSamples.iptc))
        let iim = try #require(IPTCMetadata.resource(IPTCMetadata.iptcResource, in: [UInt8](kept)))
        let text = String(decoding: iim, as: UTF8.self)
        for field in ["Jane Doe", "ACME Credit", "(c) ACME 2026"] { #expect(text.contains(field)) }
        #expect(!text.contains("Object name") && !text.contains("Secret caption"))
        #expect(iim.starts(with: [0x1C, 1, 90]), "other records are kept, as imgproxy keeps them")
        #expect(IPTCMetadata.resource(0x03ED, in: [UInt8](kept)) == nil, "only the IPTC resource")
        #expect(IPTCMetadata.copyright(kept) == kept)
        for length in 0..<CopyrightSamples.iptc.count {
            _ = IPTCMetadata.copyright(CopyrightSamples.iptc.prefix(length))
        }
    }

    @Test func jpegCarriesIPTCAndCopyrightOnlyFormatsCarryTheRights() throws {
        let image = Image(
            frames: [
                ImageFrame(pixels: PixelBuffer(width: 16, height: 8, filledWith: RGBA(red: 9, green: 99, blue: 9)))
            ],
            exif: CopyrightSamples.exif, xmp: CopyrightSamples.xmp, iptc: CopyrightSamples.iptc)
        let keeping = DecodingOptions(keepsMetadata: true)
        let all = try ImageCoders.default.decode(
            try ImageCoders.default.encode(image, as: .jpeg, options: EncodingOptions(embedsMetadata: true)),
            options: keeping)
        #expect(all.iptc == CopyrightSamples.iptc && all.xmp == CopyrightSamples.xmp)
        #expect(
            try ImageCoders.default.decode(
                try ImageCoders.default.encode(image, as: .jpeg, options: EncodingOptions(embedsMetadata: true)),
                options: .default
            ).iptc == nil, "kept only when asked")
        for format in [ImageFormat.jpeg, .png, .webp, .avif] {
            let data = try ImageCoders.default.encode(image, as: format, options: EncodingOptions(keepsCopyright: true))
            let decoded = try ImageCoders.default.decode(data, options: keeping)
            let xmp = Self.text(decoded.xmp)
            #expect(xmp.contains("Jane Doe") && !xmp.contains("Private title"), "\(format)")
            #expect(Self.text(decoded.exif).contains("ACME 2026") && !Self.text(decoded.exif).contains("MakerCo"))
            let iptc = Self.text(decoded.iptc)
            #expect(format != .jpeg || (iptc.contains("ACME Credit") && !iptc.contains("Secret caption")), "\(format)")
            let stripped = try ImageCoders.default.decode(
                try ImageCoders.default.encode(image, as: format, options: .default), options: keeping)
            #expect(stripped.exif == nil && stripped.xmp == nil && stripped.iptc == nil, "\(format)")
        }
    }
}
