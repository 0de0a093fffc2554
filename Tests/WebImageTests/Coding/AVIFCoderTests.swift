import Foundation
import Testing

@testable import WebImage

/// AVIF with libavif: header information, orientation, sequences, limits, and encoding round trips.
@Suite struct AVIFCoderTests {
    private let coder = AVIFCoder()

    @Test func infoReadsTheContainer() throws {
        let still = try coder.info(of: FormatsFixture.image("avif_8bit.avif"))
        #expect(still.format == .avif)
        #expect(still.width == 128 && still.height == 96)
        #expect(still.frameCount == 1 && !still.hasAlpha && still.orientation == .up)
        #expect(try coder.info(of: FormatsFixture.image("avif_alpha.avif")).hasAlpha)
        #expect(try coder.info(of: FormatsFixture.image("avif_anim.avif")).frameCount == 4)
        let rotated = try ImageCoders.default.info(of: FormatsFixture.image("avif_irot1.avif"))
        #expect(rotated.orientation == .left)
        #expect(rotated.uprightSize == PixelSize(width: 96, height: 128))
    }

    @Test func irotAndImirTurnTheStoredPixels() throws {
        let stored = try coder.decode(FormatsFixture.image("avif_8bit.avif"), options: .default).pixels
        let cases: [(String, ImageOrientation)] = [
            ("avif_irot1.avif", .left), ("avif_imir1.avif", .upMirrored), ("avif_irot3_imir0.avif", .rightMirrored),
        ]
        for (name, orientation) in cases {
            let image = try coder.decode(FormatsFixture.image(name), options: .default)
            #expect(image.sourceOrientation == orientation, "\(name)")
            #expect(image.pixels == stored.oriented(from: orientation), "\(name)")
            let raw = try coder.decode(FormatsFixture.image(name), options: DecodingOptions(appliesOrientation: false))
            #expect(raw.pixels == stored, "\(name)")
        }
    }

    @Test func orientationTableMatchesHEIFOrder() {
        #expect(HEIFOrientation.orientation(quarterTurns: 0, mirrorMode: nil) == .up)
        #expect(HEIFOrientation.orientation(quarterTurns: 1, mirrorMode: nil) == .left)
        #expect(HEIFOrientation.orientation(quarterTurns: 2, mirrorMode: nil) == .down)
        #expect(HEIFOrientation.orientation(quarterTurns: 3, mirrorMode: nil) == .right)
        #expect(HEIFOrientation.orientation(quarterTurns: 0, mirrorMode: 0) == .downMirrored)
        #expect(HEIFOrientation.orientation(quarterTurns: 2, mirrorMode: 1) == .downMirrored)
        #expect(HEIFOrientation.orientation(quarterTurns: 1, mirrorMode: 0) == .leftMirrored)
    }

    @Test func sequenceKeepsFramesAndDurations() throws {
        let image = try coder.decode(FormatsFixture.image("avif_anim.avif"), options: .default)
        #expect(image.frames.map(\.duration) == [0.1, 0.1, 0.25, 0.25])
        #expect(image.frames[0].pixels != image.frames[3].pixels)
        let first = try coder.decode(
            FormatsFixture.image("avif_anim.avif"), options: DecodingOptions(firstFrameOnly: true))
        #expect(first.frames.count == 1 && first.pixels == image.pixels)
    }

    @Test func limitsAreCheckedFromTheHeader() throws {
        let still = try FormatsFixture.image("avif_8bit.avif")
        let small = DecodingOptions(limits: DecodingLimits(maxPixelsPerFrame: 128 * 96 - 1))
        let error = #expect(throws: WebImageError.self) { try coder.decode(still, options: small) }
        #expect(error?.code == .tooLarge)
        let animation = try FormatsFixture.image("avif_anim.avif")
        let fewFrames = DecodingOptions(limits: DecodingLimits(maxFrames: 3))
        let frameError = #expect(throws: WebImageError.self) { try coder.decode(animation, options: fewFrames) }
        #expect(frameError?.code == .tooLarge)
        let bytes = DecodingOptions(limits: DecodingLimits(maxTotalBytes: 64 * 48 * 4 * 3))
        let byteError = #expect(throws: WebImageError.self) { try coder.decode(animation, options: bytes) }
        #expect(byteError?.code == .tooLarge)
        // The first frame alone fits.
        let firstOnly = DecodingOptions(firstFrameOnly: true, limits: bytes.limits)
        #expect(try coder.decode(animation, options: firstOnly).frames.count == 1)
    }

    @Test func opaqueStillRoundTrips() throws {
        let source = try coder.decode(FormatsFixture.image("avif_8bit.avif"), options: .default)
        let data = try ImageCoders.default.encode(source, as: .avif, options: EncodingOptions(quality: 90))
        #expect(ImageFormat.sniff(data) == .avif)
        let info = try coder.info(of: data)
        #expect(!info.hasAlpha && info.width == 128 && info.height == 96)
        let decoded = try coder.decode(data, options: .default)
        #expect(decoded.isOpaque)
        #expect(ReferenceImage.difference(decoded.pixels, source.pixels).mean < 2)
    }

    @Test func alphaRoundTrips() throws {
        let source = try coder.decode(FormatsFixture.image("avif_alpha.avif"), options: .default)
        #expect(!source.isOpaque)
        let data = try coder.encode(source, as: .avif, options: EncodingOptions(quality: 90))
        #expect(try coder.info(of: data).hasAlpha)
        let decoded = try coder.decode(data, options: .default)
        #expect(!decoded.isOpaque)
        #expect(ReferenceImage.difference(decoded.pixels, source.pixels).mean < 2)
    }

    @Test func animationRoundTripsFramesAndDurations() throws {
        let source = try ImageCoders.default.decode(corpusImage("gen_anim.gif"), options: .default)
        let data = try coder.encode(source, as: .avif, options: EncodingOptions(quality: 90))
        let decoded = try coder.decode(data, options: .default)
        #expect(decoded.frames.count == source.frames.count)
        for (got, expected) in zip(decoded.frames, source.frames) {
            #expect(abs(got.duration - expected.duration) < 0.002)
            #expect(ReferenceImage.difference(got.pixels, expected.pixels).mean < 4)
        }
        let still = try coder.encode(source, as: .avif, options: EncodingOptions(firstFrameOnly: true))
        #expect(try coder.info(of: still).frameCount == 1)
    }

    @Test func qualityAndSpeedChangeTheOutput() throws {
        let source = try coder.decode(FormatsFixture.image("avif_8bit.avif"), options: .default)
        let low = try coder.encode(source, as: .avif, options: EncodingOptions(quality: 20))
        let high = try coder.encode(source, as: .avif, options: EncodingOptions(quality: 95))
        #expect(low.count < high.count)
        #expect(AVIFEncoder.quantizer(forQuality: 100) == 0 && AVIFEncoder.quantizer(forQuality: 0) == 63)
        #expect(AVIFEncoder.quantizer(forQuality: -5) == 63 && AVIFEncoder.quantizer(forQuality: 500) == 0)
        for speed in [-3, 0, 10, 99] {
            let data = try coder.encode(
                Image(pixels: PixelBuffer(width: 9, height: 7, filledWith: .white)), as: .avif,
                options: EncodingOptions(speed: speed))
            #expect(try coder.decode(data, options: .default).size == PixelSize(width: 9, height: 7))
        }
    }

    @Test func hostileHeadersAreRefused() {
        let cases: [[UInt8]] = [
            Array("\0\0\0\u{18}ftypavif\0\0\0\0".utf8),
            Array("\0\0\0\u{1C}ftypavif\0\0\0\0mif1avif".utf8) + [UInt8](repeating: 0xFF, count: 64),
        ]
        for bytes in cases {
            #expect(throws: WebImageError.self) { try ImageCoders.default.decode(Data(bytes), options: .default) }
        }
    }
}
