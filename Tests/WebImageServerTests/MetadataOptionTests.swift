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
}
