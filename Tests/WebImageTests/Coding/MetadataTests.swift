import Foundation
import Testing

@testable import WebImage

/// EXIF: stripped by default (imgproxy's `strip_metadata`), kept when decoding and encoding ask for it, with the
/// orientation tag reset once the decoder has turned the pixels upright; checked by reading the written files back.
@Suite struct MetadataTests {
    private let coders = ImageCoders.default
    private let keep = DecodingOptions(keepsMetadata: true)

    /// The EXIF block of a corpus photo whose orientation tag says 6 (turn right).
    private func rotatedSource() throws -> (data: Data, exif: Data) {
        let data = try corpusImage("exif_Landscape_6.jpg")
        let segment: Data? = data.withUnsafeBytes { bytes in EXIFReader.jpegEXIF(bytes).map { Data($0) } }
        let exif = try #require(segment)
        #expect(exif.withUnsafeBytes(EXIFReader.orientation(in:)) == .right)
        return (data, Data(exif.dropFirst(6)))
    }

    @Test func decodersDropEXIFUnlessAsked() throws {
        let (data, _) = try rotatedSource()
        #expect(try coders.decode(data, options: .default).exif == nil)
        let kept = try coders.decode(data, options: keep)
        let exif = try #require(kept.exif)
        #expect(exif.starts(with: [0x49, 0x49]) || exif.starts(with: [0x4D, 0x4D]))
    }

    @Test func appliedOrientationIsResetToUp() throws {
        let (data, source) = try rotatedSource()
        let kept = try #require(try coders.decode(data, options: keep).exif)
        #expect(kept.withUnsafeBytes(EXIFReader.orientation(in:)) == .up)
        #expect(kept.count == source.count)
        // Only the orientation value's two bytes changed.
        #expect(zip(kept, source).filter { $0 != $1 }.count <= 2)
        // Pixels left as stored keep the tag that describes them.
        var stored = keep
        stored.appliesOrientation = false
        let unrotated = try #require(try coders.decode(data, options: stored).exif)
        #expect(unrotated == source)
    }

    @Test(arguments: [ImageFormat.jpeg, .png, .webp, .avif])
    func encodersWriteEXIFOnlyWhenAsked(format: ImageFormat) throws {
        let (data, _) = try rotatedSource()
        let image = try coders.decode(data, options: keep)
        let exif = try #require(image.exif)
        let stripped = try coders.encode(image, as: format, options: .default)
        #expect(try coders.decode(stripped, options: keep).exif == nil)
        let written = try coders.encode(image, as: format, options: EncodingOptions(embedsMetadata: true))
        let reread = try coders.decode(written, options: keep)
        #expect(reread.exif == exif)
        // The written tag says upright, so a reader does not turn the upright pixels again.
        #expect(reread.size == image.size && reread.sourceOrientation == .up)
        #expect(try coders.info(of: written).orientation == .up)
    }

    @Test func animatedPNGCarriesEXIF() throws {
        let (data, _) = try rotatedSource()
        let still = try coders.decode(data, options: keep)
        let frames = [still.frames[0], ImageFrame(pixels: still.pixels, duration: 0.1)]
        let animation = Image(frames: frames, exif: still.exif)
        let written = try coders.encode(animation, as: .png, options: EncodingOptions(embedsMetadata: true))
        let chunks = try PNGChunks(written)
        #expect(chunks.exif == still.exif)
        #expect(try coders.decode(written, options: .default).frames.count == 2)
    }

    @Test func writtenJPEGSegmentIsStandardEXIF() throws {
        let (data, _) = try rotatedSource()
        let image = try coders.decode(data, options: keep)
        let written = try coders.encode(image, as: .jpeg, options: EncodingOptions(embedsMetadata: true))
        // SOI, the encoder's JFIF APP0, then APP1 "Exif\0\0" holding the block.
        let app0Length = Int(written[4]) << 8 | Int(written[5])
        let app1 = 2 + 2 + app0Length
        #expect(Array(written[app1..<(app1 + 2)]) == [0xFF, 0xE1])
        #expect(Array(written[(app1 + 4)..<(app1 + 10)]) == EXIFMetadata.prefix)
    }
}
