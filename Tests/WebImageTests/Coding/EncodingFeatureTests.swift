import Foundation
import Testing

@testable import WebImage

/// The encoders' options imgproxy's settings need: progressive JPEG, interlaced and palette PNG, near-lossless
/// WebP, the copyright kept when metadata is stripped, and a HEIF thumbnail decoded on request.
@Suite struct EncodingFeatureTests {
    /// A 64×48 gradient with a soft alpha edge.
    static let gradient = PixelBuffer(width: 64, height: 48) { buffer in
        for y in 0..<48 {
            for x in 0..<64 {
                let index = (y * 64 + x) * 4
                buffer[index] = UInt8(x * 4)
                buffer[index + 1] = UInt8(y * 5)
                buffer[index + 2] = UInt8((x + y) * 2)
                buffer[index + 3] = x < 8 ? UInt8(x * 32) : 255
            }
        }
    }

    static func encode(_ format: ImageFormat, _ options: EncodingOptions, pixels: PixelBuffer = gradient) throws -> Data
    {
        try ImageCoders.default.encode(Image(pixels: pixels), as: format, options: options)
    }

    @Test func progressiveJPEGsHaveSeveralScansAndTheSamePixels() throws {
        let baseline = try Self.encode(.jpeg, EncodingOptions(quality: 90))
        let progressive = try Self.encode(.jpeg, EncodingOptions(quality: 90, progressive: true))
        #expect(progressive.withUnsafeBytes { EXIFReader.jpegIsProgressive($0) })
        #expect(!baseline.withUnsafeBytes { EXIFReader.jpegIsProgressive($0) })
        let a = try ImageCoders.default.decode(baseline, options: .default).pixels
        let b = try ImageCoders.default.decode(progressive, options: .default).pixels
        #expect(ReferenceImage.difference(a, b).mean < 1)
    }

    @Test func interlacedPNGsAreAdam7AndLossless() throws {
        let png = try Self.encode(.png, EncodingOptions(progressive: true))
        #expect(png[png.startIndex + 28] == 1, "IHDR's interlace method")
        #expect(try Self.encode(.png, EncodingOptions())[28] == 0)
        #expect(try ImageCoders.default.decode(png, options: .default).pixels == Self.gradient)
    }

    @Test func palettePNGsKeepAtMostTheColoursAskedAndTheirAlpha() throws {
        let png = try Self.encode(.png, EncodingOptions(paletteColors: 16))
        #expect(png[png.startIndex + 25] == 3, "IHDR's colour type: indexed")
        let decoded = try ImageCoders.default.decode(png, options: .default).pixels
        var colors = Set<[UInt8]>()
        for y in 0..<decoded.height {
            for x in 0..<decoded.width {
                let pixel = decoded[x, y]
                colors.insert([pixel.red, pixel.green, pixel.blue, pixel.alpha])
            }
        }
        #expect(colors.count <= 16)
        #expect(decoded[0, 10].alpha < 64 && decoded[40, 10].alpha == 255, "tRNS keeps the alpha edge")
        #expect(ReferenceImage.difference(decoded, Self.gradient).mean < 20)
        let interlaced = try Self.encode(.png, EncodingOptions(progressive: true, paletteColors: 2))
        #expect(interlaced[28] == 1 && interlaced[25] == 3)
    }

    @Test func nearLosslessWebPIsLosslessAfterPreprocessing() throws {
        let opaque = PixelBuffer(width: 64, height: 48) { buffer in
            for index in stride(from: 0, to: buffer.count, by: 4) {
                (buffer[index], buffer[index + 1], buffer[index + 2], buffer[index + 3]) =
                    (UInt8(index % 251), UInt8(index / 64 % 256), 90, 255)
            }
        }
        let exact = try Self.encode(.webp, EncodingOptions(quality: 100, nearLossless: true), pixels: opaque)
        #expect(try ImageCoders.default.decode(exact, options: .default).pixels == opaque, "level 100 changes nothing")
        let near = try Self.encode(.webp, EncodingOptions(quality: 40, nearLossless: true), pixels: opaque)
        let decoded = try ImageCoders.default.decode(near, options: .default).pixels
        #expect(ReferenceImage.difference(decoded, opaque).mean < 8)
        #expect(near.range(of: Data("VP8L".utf8)) != nil, "a lossless bitstream")
    }

    /// libwebp's method (``EncodingOptions/webpEffort``) and preset (``EncodingOptions/webpPreset``) reach the
    /// encoder, for stills and animations: other settings, other files; the defaults, libwebp's (method 4).
    @Test func webpEffortAndPresetReachLibwebp() throws {
        let noisy = Self.noise(seed: 7)
        let standard = try Self.encode(.webp, EncodingOptions(quality: 70), pixels: noisy)
        #expect(try Self.encode(.webp, EncodingOptions(quality: 70, webpEffort: 4), pixels: noisy) == standard)
        #expect(try Self.encode(.webp, EncodingOptions(quality: 70, webpEffort: 0), pixels: noisy) != standard)
        #expect(try Self.encode(.webp, EncodingOptions(quality: 70, webpPreset: .text), pixels: noisy) != standard)
        let animation = Image(frames: [ImageFrame(pixels: noisy), ImageFrame(pixels: Self.noise(seed: 9))])
        let animated = try ImageCoders.default.encode(animation, as: .webp, options: EncodingOptions(quality: 70))
        let fast = try ImageCoders.default.encode(
            animation, as: .webp, options: EncodingOptions(quality: 70, webpEffort: 0))
        #expect(animated != fast)
        #expect(WebPPreset(named: "PHOTO") == .photo && WebPPreset(named: "film") == nil)
    }

    /// 96x64 opaque pixels of a linear congruential generator's noise.
    static func noise(seed: UInt32) -> PixelBuffer {
        PixelBuffer(width: 96, height: 64) { buffer in
            var state = seed
            for index in 0..<buffer.count {
                state = state &* 1_103_515_245 &+ 12345
                buffer[index] = index % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: state >> 16)
            }
        }
    }

    /// A TIFF EXIF block with `Make`, `Artist` and `Copyright` in its first IFD, big-endian. Computed, not a stored
    /// `static let`: a global `Data` keeps its storage behind a tagged pointer LeakSanitizer cannot follow, so
    /// `make test-asan` reported it as leaked at exit.
    static var exif: Data {
        var tiff: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 3]
        let values: [(tag: UInt16, text: String)] = [(0x010F, "MakerCo"), (0x013B, "Ann"), (0x8298, "ACME 2026")]
        var data: [UInt8] = []
        let dataStart = 8 + 2 + 3 * 12 + 4
        for (tag, text) in values {
            let bytes = Array(text.utf8) + [0]
            tiff += [UInt8(tag >> 8), UInt8(tag & 0xFF), 0, 2, 0, 0, 0, UInt8(bytes.count)]
            if bytes.count <= 4 {
                tiff += bytes + [UInt8](repeating: 0, count: 4 - bytes.count)
            } else {
                tiff += [0, 0, 0, UInt8(dataStart + data.count)]
                data += bytes
            }
        }
        return Data(tiff + [0, 0, 0, 0] + data)
    }

    @Test func theCopyrightAloneIsKeptWhenMetadataIsStripped() throws {
        let image = Image(frames: [ImageFrame(pixels: Self.gradient)], exif: Self.exif)
        let block = try #require(EXIFCopyright.block(from: Self.exif))
        #expect(block.withUnsafeBytes { EXIFCopyright.value(of: 0x8298, in: $0) } == Array("ACME 2026\0".utf8))
        #expect(block.withUnsafeBytes { EXIFCopyright.value(of: 0x013B, in: $0) } == Array("Ann\0".utf8))
        #expect(block.withUnsafeBytes { EXIFCopyright.value(of: 0x010F, in: $0) } == nil)
        for format in [ImageFormat.jpeg, .png, .webp] {
            let kept = try ImageCoders.default.encode(image, as: format, options: EncodingOptions(keepsCopyright: true))
            let exif = try #require(
                try ImageCoders.default.decode(kept, options: DecodingOptions(keepsMetadata: true)).exif, "\(format)")
            #expect(exif.range(of: Data("ACME 2026".utf8)) != nil && exif.range(of: Data("MakerCo".utf8)) == nil)
            let stripped = try ImageCoders.default.encode(image, as: format, options: EncodingOptions())
            #expect(try ImageCoders.default.decode(stripped, options: DecodingOptions(keepsMetadata: true)).exif == nil)
        }
        #expect(EXIFCopyright.block(from: Data([0x49, 0x49, 42, 0, 8, 0, 0, 0, 0, 0])) == nil)
        #expect(EXIFCopyright.block(from: Data([1, 2, 3])) == nil)
    }

    @Test func everyTruncationOfACopyrightBlockIsSafe() {
        for length in 0..<Self.exif.count {
            _ = EXIFCopyright.block(from: Self.exif.prefix(length))
        }
    }

    @Test func aHEIFThumbnailIsDecodedWhenPreferred() throws {
        let data = try FormatsFixture.image("heic_thumb.heic")
        let thumbnail = try HEICCoder().decode(data, options: DecodingOptions(prefersThumbnail: true))
        #expect(thumbnail.size == PixelSize(width: 32, height: 24))
        let none = try HEICCoder().decode(
            FormatsFixture.image("heic_rgb.heic"), options: DecodingOptions(prefersThumbnail: true))
        #expect(none.size == PixelSize(width: 128, height: 96), "the primary image when there is no thumbnail")
    }

    @Test func anAVIFThumbnailIsDecodedThroughLibheifWhenPreferred() throws {
        let data = try FormatsFixture.image("avif_thumb.avif")
        let thumbnail = try AVIFCoder().decode(data, options: DecodingOptions(prefersThumbnail: true))
        #expect(thumbnail.size == PixelSize(width: 32, height: 24) && thumbnail.format == .avif && thumbnail.isOpaque)
        let small = DecodingOptions(targetSize: PixelSize(width: 8, height: 8))
        let covering = try AVIFCoder().decode(data, options: small)
        #expect(covering.size == PixelSize(width: 32, height: 24), "a thumbnail that covers the target, as HEIC's")
        let full = try AVIFCoder().decode(data, options: DecodingOptions(targetSize: PixelSize(width: 64, height: 8)))
        #expect(full.size == PixelSize(width: 128, height: 96), "else libavif's primary image")
        let none = try AVIFCoder().decode(
            FormatsFixture.image("avif_8bit.avif"), options: DecodingOptions(prefersThumbnail: true))
        #expect(none.size == PixelSize(width: 128, height: 96), "the primary image when there is no thumbnail")
        let limited = DecodingOptions(limits: DecodingLimits(maxPixelsPerFrame: 100), prefersThumbnail: true)
        #expect(throws: WebImageError.self) { try AVIFCoder().decode(data, options: limited) }
    }
}
