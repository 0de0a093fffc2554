import Foundation
import Testing
import WebImage
import WebImageTesting

@testable import WebImageServer

/// `strip_metadata`: results carry no EXIF or XMP by default; with `strip_metadata:0` they keep the source's, the EXIF
/// orientation tag set to upright when `auto_rotate` turned the pixels (imgproxy's behaviour through libvips).
@Suite("Server: strip_metadata")
struct MetadataOptionTests {
    private let processor = ImageProcessor(coders: ImageCoders.default, limits: ServerLimits())
    private let keep = DecodingOptions(keepsMetadata: true)

    /// A corpus photo stored 450x600 whose EXIF orientation is 6 (turn right): 600x450 once upright.
    private func source() throws -> Data {
        try Data(
            contentsOf: Fixtures.corpus.appendingPathComponent("images").appendingPathComponent(
                "exif_Landscape_6.jpg"))
    }

    @Test(arguments: [ImageFormat.jpeg, .webp, .png])
    func metadataIsStrippedByDefaultAndKeptOnRequest(format: ImageFormat) throws {
        var options = ProcessingOptions()
        options.width = 60
        let stripped = try processor.process(try source(), options: options, format: format)
        #expect(try ImageCoders.default.decode(stripped.data, options: keep).exif == nil)

        options.stripMetadata = false
        let kept = try processor.process(try source(), options: options, format: format)
        let image = try ImageCoders.default.decode(kept.data, options: keep)
        #expect(image.exif != nil)
        #expect(try ImageCoders.default.info(of: kept.data).orientation == .up, "the pixels are upright already")
        #expect(image.size == kept.size && kept.size == PixelSize(width: 60, height: 45), "upright: landscape")
    }

    @Test func withoutAutoRotateTheTagStillDescribesThePixels() throws {
        var options = ProcessingOptions()
        options.width = 60
        options.stripMetadata = false
        options.autoRotate = false
        let kept = try processor.process(try source(), options: options, format: .jpeg)
        #expect(try ImageCoders.default.decode(kept.data, options: keep).exif != nil)
        #expect(try ImageCoders.default.info(of: kept.data).orientation == .right)
    }

    @Test func xmpIsKeptBesideEXIF() throws {
        let source = try Data(
            contentsOf: Fixtures.corpus.appendingPathComponent("images").appendingPathComponent(
                "exif_Landscape_1.jpg"))
        var options = ProcessingOptions()
        options.width = 60
        let xmp = try #require(try ImageCoders.default.decode(source, options: keep).xmp)
        let stripped = try processor.process(source, options: options, format: .webp)
        #expect(try ImageCoders.default.decode(stripped.data, options: keep).xmp == nil)
        options.stripMetadata = false
        let kept = try processor.process(source, options: options, format: .webp)
        #expect(try ImageCoders.default.decode(kept.data, options: keep).xmp == xmp)
    }

    /// libvips writes the XMP and the IPTC into a TIFF result (no EXIF) and the EXIF and the XMP into a HEIF one (no
    /// IPTC): so does the server, from a JPEG that has all three.
    @Test func tiffAndHEICResultsCarryWhatLibvipsWrites() throws {
        let photo = try ImageCoders.default.decode(
            try Data(
                contentsOf: Fixtures.corpus.appendingPathComponent("images").appendingPathComponent(
                    "exif_Landscape_1.jpg")), options: keep)
        let xmp = try #require(photo.xmp)
        let source = try ImageCoders.default.encode(
            Image(frames: photo.frames, exif: photo.exif, xmp: xmp, iptc: CopyrightSamples.iptc), as: .jpeg,
            options: EncodingOptions(embedsMetadata: true))
        var options = ProcessingOptions()
        options.width = 60
        options.stripMetadata = false
        let tiff = try ImageCoders.default.decode(
            try processor.process(source, options: options, format: .tiff).data, options: keep)
        #expect(tiff.xmp == xmp && tiff.exif == nil)
        let iptc = String(decoding: tiff.iptc ?? Data(), as: UTF8.self)
        #expect(iptc.contains("Secret caption") && iptc.contains("(c) ACME 2026"))
        guard ImageCoders.default.canEncode(.heic) else { return }
        let heic = try ImageCoders.default.decode(
            try processor.process(source, options: options, format: .heic).data, options: keep)
        #expect(heic.xmp == xmp && heic.exif != nil && heic.iptc == nil)
    }

    /// A JPEG XL source's EXIF and XMP (Brotli-compressed boxes) reach `/info` and `keep_copyright` as a JPEG's do.
    @Test func jpegXLMetadataReachesInfoAndKeepCopyright() throws {
        let source = try Fixtures.data("formats/images/jxl_meta_brob.jxl")
        let json = try InfoReport.make(source, options: InfoOptions(), maxResolution: 1 << 24).text
        #expect(json.contains(#""Copyright":"(c) 2026 Jane Doe""#), "\(json)")
        #expect(json.contains(#""Orientation":"6""#), "the EXIF block as stored")
        #expect(json.contains(#""dc":{"creator":["Jane Doe"]}"#), "\(json)")
        var options = ProcessingOptions()
        options.width = 60
        let result = try processor.process(source, options: options, format: .jpeg)
        let exif = try #require(try ImageCoders.default.decode(result.data, options: keep).exif)
        #expect(exif.range(of: Data("(c) 2026 Jane Doe".utf8)) != nil, "keep_copyright is on by default")
        #expect(exif.range(of: Data([0x12, 0x01])) == nil, "nothing but the artist and copyright")
        #expect(result.size == PixelSize(width: 60, height: 80), "turned once, by the codestream's orientation")
    }
}
