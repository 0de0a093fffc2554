import Foundation
import Testing

@testable import WebImage

/// JPEG XL metadata: EXIF and XMP from the container's `Exif` and `xml ` boxes, plain or Brotli-compressed (`brob`),
/// before or after the codestream, bounded like the other decoders'; the codestream's orientation alone turns the
/// pixels; the encoder writes them back. And HEIC's `Exif` and XMP items, read and written.
@Suite struct JXLMetadataTests {
    private let keep = DecodingOptions(keepsMetadata: true)

    /// The XMP packet the metadata fixtures carry (`tools/make_metadata.sh`).
    private static let creator = "<rdf:li>Jane Doe</rdf:li>"
    /// The copyright both fixtures' EXIF blocks carry.
    private static var copyright: Data { Data("(c) 2026 Jane Doe".utf8) }

    private func orientation(_ exif: Data?) throws -> ImageOrientation {
        try #require(exif).withUnsafeBytes(EXIFReader.orientation(in:))
    }

    /// cjxl's recompression of a JPEG: both in `brob` boxes; orientation 6 in the codestream and in the EXIF.
    @Test func compressedBoxesAreRead() throws {
        let data = try FormatsFixture.image("jxl_meta_brob.jxl")
        let image = try ImageCoders.default.decode(data, options: keep)
        #expect(String(decoding: try #require(image.xmp), as: UTF8.self).contains(Self.creator))
        #expect(try #require(image.exif).range(of: Self.copyright) != nil)
        #expect(image.exif?.prefix(4) == Data([0x49, 0x49, 42, 0]), "the TIFF header, past the box's offset")
        // Turned once, by the codestream's orientation; the kept tag says the pixels are upright.
        #expect(image.size == PixelSize(width: 96, height: 128))
        #expect(try orientation(image.exif) == .up)
        let stored = try ImageCoders.default.decode(
            data, options: DecodingOptions(appliesOrientation: false, keepsMetadata: true))
        #expect(stored.size == PixelSize(width: 128, height: 96))
        #expect(try orientation(stored.exif) == .right, "as stored when the pixels are not turned")
    }

    /// Plain boxes, the `Exif` one before the codestream and the `xml ` one after it. Its EXIF says 6 and its
    /// codestream 1: JPEG XL's orientation is the codestream's, so the picture stays as stored.
    @Test func plainBoxesAroundTheCodestreamAreRead() throws {
        let data = try FormatsFixture.image("jxl_meta_plain.jxl")
        let image = try ImageCoders.default.decode(data, options: keep)
        #expect(String(decoding: try #require(image.xmp), as: UTF8.self).contains(Self.creator))
        #expect(try #require(image.exif).range(of: Self.copyright) != nil)
        #expect(image.size == PixelSize(width: 128, height: 96))
        #expect(image.sourceOrientation == .up)
        #expect(try ImageCoders.default.info(of: data).orientation == .up)
        #expect(try orientation(image.exif) == .up, "rewritten: the stored pixels are what a viewer must show")
        let first = try ImageCoders.default.decode(
            data, options: DecodingOptions(firstFrameOnly: true, keepsMetadata: true))
        #expect(first.xmp == image.xmp, "a box after the codestream is read for a first-frame decode too")
    }

    /// A file cut in a box after its codestream: the picture is whole and decodes, the box cut short is left out.
    @Test func aBoxCutShortAfterTheCodestreamIsLeftOut() throws {
        let data = try FormatsFixture.image("jxl_meta_plain.jxl")
        let whole = try ImageCoders.default.decode(data, options: keep)
        let cut = try ImageCoders.default.decode(data.prefix(data.count - 8), options: keep)
        #expect(cut.pixels == whole.pixels)
        #expect(cut.exif == whole.exif && cut.exif != nil)
        #expect(cut.xmp == nil)
    }

    @Test func metadataIsDroppedUnlessAsked() throws {
        for name in ["jxl_meta_brob.jxl", "jxl_meta_plain.jxl"] {
            let image = try ImageCoders.default.decode(try FormatsFixture.image(name), options: .default)
            #expect(image.exif == nil && image.xmp == nil, "\(name)")
        }
    }

    /// A container around `codestream` with `boxes` (type and content) before it, and `after` behind it.
    static func container(_ codestream: Data, boxes: [(String, Data)], after: [(String, Data)] = []) -> Data {
        func box(_ type: String, _ content: Data) -> Data {
            let size = UInt32(content.count + 8)
            return Data(withUnsafeBytes(of: size.bigEndian) { Array($0) } + Array(type.utf8)) + content
        }
        var file = Data(JXLMetadata.containerSignature) + box("ftyp", Data("jxl \0\0\0\0jxl ".utf8))
        for (type, content) in boxes { file += box(type, content) }
        file += box("jxlc", codestream)
        for (type, content) in after { file += box(type, content) }
        return file
    }

    /// The bare codestream of a fixture, and the fixtures' TIFF block.
    private func parts() throws -> (codestream: Data, tiff: Data) {
        let codestream = try FormatsFixture.image("jxl_lossy.jxl")
        #expect(codestream.prefix(2) == Data([0xFF, 0x0A]))
        let plain = try ImageCoders.default.decode(FormatsFixture.image("jxl_meta_plain.jxl"), options: keep)
        let tiff = try #require(plain.exif)
        return (codestream, tiff)
    }

    @Test func exifBoxOffsetIsFollowed() throws {
        let (codestream, tiff) = try parts()
        let offset: UInt32 = 6
        let prefixed = Data(withUnsafeBytes(of: offset.bigEndian) { Array($0) }) + Data(EXIFMetadata.prefix) + tiff
        let image = try ImageCoders.default.decode(
            Self.container(codestream, boxes: [("Exif", prefixed)]), options: keep)
        #expect(image.exif == tiff)
        let pastTheEnd = Data([0, 0, 0xFF, 0xFF]) + tiff
        let unread = try ImageCoders.default.decode(
            Self.container(codestream, boxes: [("Exif", pastTheEnd)]), options: keep)
        #expect(unread.exif == nil)
        #expect(unread.size == PixelSize(width: 128, height: 96), "the image still decodes")
    }

    /// Boxes past the bounds of the other decoders are left out, the rest of the file read as usual; the first box of
    /// a kind wins.
    @Test func boxesAreBounded() throws {
        let (codestream, tiff) = try parts()
        let packet = Data("<x:xmpmeta>first</x:xmpmeta>".utf8)
        let huge = Data(repeating: 0x20, count: XMPMetadata.maxSize + 1)
        let largest = Data(repeating: 0x20, count: XMPMetadata.maxSize)
        let hugeEXIF = Data(count: 4) + tiff + Data(count: EXIFMetadata.maxSize)
        let file = Self.container(
            codestream, boxes: [("xml ", huge), ("Exif", hugeEXIF)],
            after: [("xml ", packet), ("Exif", Data(count: 4) + tiff), ("xml ", Data("second".utf8))])
        let image = try ImageCoders.default.decode(file, options: keep)
        #expect(image.xmp == packet, "the box past the bound is skipped, the next one read")
        #expect(image.exif == tiff)
        let fits = try ImageCoders.default.decode(Self.container(codestream, boxes: [("xml ", largest)]), options: keep)
        #expect(fits.xmp == largest)
    }

    @Test func aBareCodestreamHasNoMetadata() throws {
        let image = try ImageCoders.default.decode(try FormatsFixture.image("jxl_lossy.jxl"), options: keep)
        #expect(image.exif == nil && image.xmp == nil)
    }

    @Test func encoderWritesBoxesOnlyWhenAsked() throws {
        let source = try ImageCoders.default.decode(try FormatsFixture.image("jxl_meta_brob.jxl"), options: keep)
        let stripped = try ImageCoders.default.encode(source, as: .jxl, options: .default)
        let strippedImage = try ImageCoders.default.decode(stripped, options: keep)
        #expect(strippedImage.exif == nil && strippedImage.xmp == nil)
        let written = try ImageCoders.default.encode(source, as: .jxl, options: EncodingOptions(embedsMetadata: true))
        let reread = try ImageCoders.default.decode(written, options: keep)
        #expect(reread.exif == source.exif)
        #expect(reread.xmp == source.xmp)
        #expect(reread.size == source.size, "the kept tag is upright: no second turn")
        let copyright = try ImageCoders.default.encode(
            source, as: .jxl, options: EncodingOptions(keepsCopyright: true))
        let kept = try #require(try ImageCoders.default.decode(copyright, options: keep).exif)
        #expect(kept.range(of: Self.copyright) != nil)
        #expect(kept == EXIFCopyright.block(from: try #require(source.exif)), "the artist and copyright alone")
    }

    /// HEIC: heif-enc copies a JPEG's EXIF and XMP into `Exif` and `mime` items. The pixels are as stored (HEIF's
    /// orientation is `irot`/`imir`, applied by libheif), so the kept EXIF tag says 1 whatever the options.
    @Test func heicItemsAreReadAndWritten() throws {
        let data = try FormatsFixture.image("heic_meta.heic")
        for applies in [true, false] {
            let image = try ImageCoders.default.decode(
                data, options: DecodingOptions(appliesOrientation: applies, keepsMetadata: true))
            #expect(image.size == PixelSize(width: 128, height: 96))
            #expect(String(decoding: try #require(image.xmp), as: UTF8.self).contains(Self.creator))
            #expect(try #require(image.exif).range(of: Self.copyright) != nil)
            #expect(try orientation(image.exif) == .up, "applies orientation: \(applies)")
        }
        let plain = try ImageCoders.default.decode(data, options: .default)
        #expect(plain.exif == nil && plain.xmp == nil)
        guard ImageCoders.default.canEncode(.heic) else { return }
        let source = try ImageCoders.default.decode(data, options: keep)
        let written = try ImageCoders.default.encode(source, as: .heic, options: EncodingOptions(embedsMetadata: true))
        let reread = try ImageCoders.default.decode(written, options: keep)
        #expect(reread.exif == source.exif)
        #expect(reread.xmp == source.xmp)
        let stripped = try ImageCoders.default.decode(
            try ImageCoders.default.encode(source, as: .heic, options: .default), options: keep)
        #expect(stripped.exif == nil && stripped.xmp == nil)
    }
}
