import Foundation
import Testing
import WebImageTesting

@testable import WebImage

/// A TIFF's metadata as libvips reads and writes it: the XMP packet (`XMLPacket`) and the IPTC-IIM datasets
/// (`RichTIFFIPTC`) round-trip; EXIF is neither read from nor written to a TIFF (libvips' `tiffsave` writes none).
@Suite("Coding: TIFF metadata")
struct TIFFMetadataTests {
    let coders = ImageCoders.default
    let keep = DecodingOptions(keepsMetadata: true)

    /// A real photo's XMP (the corpus' `exif_Landscape_1.jpg`) with the IPTC sample, as a TIFF.
    func source() throws -> Image {
        let jpeg = try Data(contentsOf: Fixtures.corpus.appendingPathComponent("images/exif_Landscape_1.jpg"))
        let decoded = try coders.decode(jpeg, options: keep)
        #expect(decoded.xmp != nil && decoded.exif != nil)
        return Image(
            frames: decoded.frames, exif: decoded.exif, xmp: decoded.xmp, iptc: CopyrightSamples.iptc)
    }

    func datasets(_ resources: Data?) -> [UInt8]? {
        resources.flatMap { IPTCMetadata.resource(IPTCMetadata.iptcResource, in: [UInt8]($0)).map(Array.init) }
    }

    @Test func xmpAndIPTCRoundTrip() throws {
        let image = try source()
        let tiff = try coders.encode(image, as: .tiff, options: EncodingOptions(embedsMetadata: true))
        let back = try coders.decode(tiff, options: keep)
        #expect(back.xmp == image.xmp)
        #expect(datasets(back.iptc) == datasets(CopyrightSamples.iptc), "the IIM datasets, resource 0x0404 again")
        #expect(back.exif == nil, "no EXIF in a TIFF, as libvips")
        // Only what the decoder is asked to keep, and nothing without metadata to write.
        #expect(try coders.decode(tiff, options: .default).xmp == nil)
        let plain = try coders.encode(image, as: .tiff, options: EncodingOptions())
        let bare = try coders.decode(plain, options: keep)
        #expect(bare.xmp == nil && bare.iptc == nil)
    }

    /// `keep_copyright` alone: the XMP rights properties and the IPTC copyright datasets, nothing else.
    @Test func copyrightAloneIsWritten() throws {
        var image = try source()
        image = Image(frames: image.frames, xmp: CopyrightSamples.xmp, iptc: CopyrightSamples.iptc)
        let tiff = try coders.encode(image, as: .tiff, options: EncodingOptions(keepsCopyright: true))
        let back = try coders.decode(tiff, options: keep)
        let text = String(decoding: (back.xmp ?? Data()) + Data(datasets(back.iptc) ?? []), as: UTF8.self)
        for kept in CopyrightSamples.keptTexts { #expect(text.contains(kept), "\(kept)") }
        for dropped in CopyrightSamples.droppedTexts { #expect(!text.contains(dropped), "\(dropped)") }
    }

    /// IIM datasets padded to 32-bit values, as a TIFF stores them, read back to the last whole dataset.
    @Test func paddedDatasetsAreReadToTheirEnd() throws {
        let iim = try #require(datasets(CopyrightSamples.iptc))
        let padded = iim + [0, 0, 0]
        #expect(datasets(IPTCMetadata.resources(iim: padded)) == iim)
        #expect(IPTCMetadata.resources(iim: [0, 0, 0, 0]) == nil)
        #expect(IPTCMetadata.resources(iim: [0x1C, 2, 80, 0, 9, 65]) == nil, "a dataset cut short")
    }
}
