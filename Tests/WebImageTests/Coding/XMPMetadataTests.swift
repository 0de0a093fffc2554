import Foundation
import Testing

@testable import WebImage

/// XMP: stripped by default, kept when decoding and encoding ask for it, beside the EXIF block; checked by reading
/// the written files back, in every format with a place for it.
@Suite struct XMPMetadataTests {
    private let coders = ImageCoders.default
    private let keep = DecodingOptions(keepsMetadata: true)

    /// A corpus photo with an EXIF block and an XMP packet.
    private func source() throws -> (data: Data, xmp: Data) {
        let data = try corpusImage("exif_Landscape_1.jpg")
        let packet: Data? = data.withUnsafeBytes { XMPMetadata.jpegPacket($0).map { Data($0) } }
        let xmp = try #require(packet)
        #expect(String(decoding: xmp, as: UTF8.self).contains("x:xmpmeta"))
        return (data, xmp)
    }

    @Test func decodersDropXMPUnlessAsked() throws {
        let (data, xmp) = try source()
        #expect(try coders.decode(data, options: .default).xmp == nil)
        let kept = try coders.decode(data, options: keep)
        #expect(kept.xmp == xmp)
        #expect(kept.exif != nil)
    }

    /// The formats with an encoder that writes XMP (HEIC where libheif has its x265 plugin).
    static let writers: [ImageFormat] =
        [.jpeg, .png, .webp, .avif, .jxl] + (ImageCoders.default.canEncode(.heic) ? [.heic] : [])

    @Test(arguments: writers)
    func encodersWriteXMPOnlyWhenAsked(format: ImageFormat) throws {
        let (data, xmp) = try source()
        let image = try coders.decode(data, options: keep)
        let stripped = try coders.encode(image, as: format, options: .default)
        #expect(try coders.decode(stripped, options: keep).xmp == nil)
        let written = try coders.encode(image, as: format, options: EncodingOptions(embedsMetadata: true))
        let reread = try coders.decode(written, options: keep)
        #expect(reread.xmp == xmp)
        #expect(reread.exif == image.exif)
    }

    @Test func animatedPNGCarriesXMP() throws {
        let (data, xmp) = try source()
        let still = try coders.decode(data, options: keep)
        let animation = Image(
            frames: [still.frames[0], ImageFrame(pixels: still.pixels, duration: 0.1)], xmp: still.xmp)
        let written = try coders.encode(animation, as: .png, options: EncodingOptions(embedsMetadata: true))
        #expect(try PNGChunks(written).xmp == xmp)
        #expect(try coders.decode(written, options: .default).frames.count == 2)
    }

    @Test func pngTextThatIsNotPlainXMPIsIgnored() {
        let packet = Data("<x:xmpmeta/>".utf8)
        let payload = XMPMetadata.pngPayload(packet)
        #expect(XMPMetadata.pngPacket(Data(payload)) == packet)
        var compressed = payload
        compressed[XMPMetadata.pngKeyword.utf8.count + 1] = 1
        #expect(XMPMetadata.pngPacket(Data(compressed)) == nil)
        #expect(XMPMetadata.pngPacket(Data(Array("Comment".utf8) + [0, 0, 0, 0, 0] + Array(packet))) == nil)
        // Every cut of the payload reads as nothing or as a prefix of the packet, never past the end.
        for end in 0..<payload.count {
            if let cut = XMPMetadata.pngPacket(Data(payload[..<end])) { #expect(packet.starts(with: cut)) }
        }
    }
}
