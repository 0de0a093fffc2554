import Foundation
import Testing

@testable import WebImage

/// Animations carrying a colour description convert every frame to sRGB (or keep it, as asked): WebP `ICCP`,
/// APNG `iCCP`, GIF's `ICCRGBG1012` extension; and PNG `gAMA`/`cHRM` without `iCCP`, as browsers read them, when
/// asked (``DecodingOptions/appliesPNGGamma``).
@Suite struct AnimatedColorTests {
    private let coders = ImageCoders.default
    private let keep = DecodingOptions(keepsColorProfile: true)
    private let gamma = DecodingOptions(appliesPNGGamma: true)

    private func displayP3() throws -> Data {
        try Data(contentsOf: FormatsFixture.directory.appendingPathComponent("DisplayP3.icc"))
    }

    /// Two frames of saturated colours in Display P3, with the profile on the image.
    private func animation() throws -> Image {
        let frames = [RGBA(red: 230, green: 20, blue: 20), RGBA(red: 20, green: 200, blue: 40)].map {
            ImageFrame(pixels: PixelBuffer(width: 12, height: 8, filledWith: $0), duration: 0.1)
        }
        return Image(frames: frames, loopCount: 2, colorProfile: try displayP3())
    }

    /// Decodes `data` converted and kept, and checks that every frame converted as the still conversion would.
    private func expectConvertedFrames(_ data: Data, _ label: String) throws {
        let converted = try coders.decode(data, options: .default)
        let kept = try coders.decode(data, options: keep)
        #expect(converted.frames.count == 2, "\(label)")
        #expect(converted.colorProfile == nil, "\(label)")
        #expect(kept.colorProfile == (try displayP3()), "\(label)")
        let later = kept.convertedToSRGB()
        for (index, (got, expected)) in zip(converted.frames, later.frames).enumerated() {
            #expect(got.pixels == expected.pixels, "\(label) frame \(index)")
            #expect(ReferenceImage.difference(got.pixels, kept.frames[index].pixels).max > 10, "\(label) \(index)")
        }
    }

    @Test func animatedWebPFramesConvert() throws {
        let options = EncodingOptions(lossless: true, embedsColorProfile: true)
        try expectConvertedFrames(try coders.encode(animation(), as: .webp, options: options), "webp")
    }

    @Test func animatedPNGFramesConvert() throws {
        let options = EncodingOptions(embedsColorProfile: true)
        try expectConvertedFrames(try coders.encode(animation(), as: .png, options: options), "apng")
    }

    @Test func animatedGIFPalettesConvert() throws {
        // The P3 values as they are, without the profile: the GIF encoder would convert them to sRGB first.
        let source = try animation()
        var gif = try coders.encode(Image(frames: source.frames, loopCount: 2), as: .gif, options: .default)
        // The ICCRGBG1012 application extension, inserted before the first extension the encoder wrote.
        let profile = try displayP3()
        var extensionBytes: [UInt8] = [0x21, 0xFF, 11] + Array("ICCRGBG1012".utf8)
        var offset = 0
        while offset < profile.count {
            let part = profile.dropFirst(offset).prefix(255)
            extensionBytes += [UInt8(part.count)] + Array(part)
            offset += part.count
        }
        extensionBytes.append(0)
        let first = try #require(gif.firstRange(of: Data([0x21])))
        gif.insert(contentsOf: extensionBytes, at: first.lowerBound)
        try expectConvertedFrames(gif, "gif")
    }

    /// A 2x1 PNG of (128, 128, 128) and (200, 100, 50) with `chunks` inserted after `IHDR`.
    private func png(with chunks: [(String, [UInt8])]) throws -> Data {
        let pixels = PixelBuffer(width: 2, height: 1, bytes: [128, 128, 128, 255, 200, 100, 50, 255])
        var data = try coders.encode(Image(pixels: pixels), as: .png, options: .default)
        var at = 8 + 8 + 13 + 4
        for (type, payload) in chunks {
            let typeBytes = Data(type.utf8)
            var chunk = Data([UInt8(payload.count >> 24), UInt8(payload.count >> 16 & 0xFF)])
            chunk += [UInt8(payload.count >> 8 & 0xFF), UInt8(payload.count & 0xFF)] + typeBytes + payload
            let crc = CRC32.checksum(typeBytes, Data(payload))
            chunk += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
            data.insert(contentsOf: chunk, at: at)
            at += chunk.count
        }
        return data
    }

    private func bigEndian(_ values: [UInt32]) -> [UInt8] {
        values.flatMap { [UInt8($0 >> 24), UInt8($0 >> 16 & 0xFF), UInt8($0 >> 8 & 0xFF), UInt8($0 & 0xFF)] }
    }

    @Test func pngGammaAloneConverts() throws {
        // Gamma 1.0: the samples are linear light, so 128 is 0.502 linear, 188 in sRGB.
        let linear = try coders.decode(png(with: [("gAMA", bigEndian([100_000]))]), options: gamma)
        #expect(abs(Int(linear.pixels[0, 0].red) - 188) <= 1)
        // 1/2.2 without cHRM is taken for sRGB: nothing changes.
        let srgb = try coders.decode(png(with: [("gAMA", bigEndian([45_455]))]), options: gamma)
        #expect(srgb.pixels[0, 0] == RGBA(red: 128, green: 128, blue: 128))
        #expect(srgb.pixels[1, 0] == RGBA(red: 200, green: 100, blue: 50))
    }

    @Test func pngGammaAndChromaticitiesConvertLikeTheProfile() throws {
        // Adobe RGB (1998) as gAMA and cHRM: gamma 563/256, D65, its primaries.
        let chrm = bigEndian([31_270, 32_900, 64_000, 33_000, 21_000, 71_000, 15_000, 6_000])
        let data = try png(with: [("gAMA", bigEndian([45_471])), ("cHRM", chrm)])
        let image = try coders.decode(data, options: gamma)
        // The same colours through the Adobe RGB profile the corpus's JPEG embeds.
        let jpeg = try FormatsFixture.image("jpeg_adobergb.jpg")
        let adobe = try #require(jpeg.withUnsafeBytes { ICCProfileReader.jpeg($0) })
        let transform = try #require(ColorTransforms.transform(for: adobe, source: .rgba))
        var expected: [UInt8] = [128, 128, 128, 255, 200, 100, 50, 255]
        expected.withUnsafeMutableBufferPointer { transform.apply($0) }
        #expect(expected[4] > 210, "Adobe RGB's orange is more saturated than sRGB's: \(expected)")
        for (index, got) in image.pixels.bytes.enumerated() {
            #expect(abs(Int(got) - Int(expected[index])) <= 2, "byte \(index): \(got), profile \(expected[index])")
        }
        // Kept, the made profile travels with the image instead.
        let kept = try coders.decode(data, options: DecodingOptions(keepsColorProfile: true, appliesPNGGamma: true))
        // Turned off, as libpng, libvips and imgproxy: the samples are taken for sRGB; on by default, as browsers.
        #expect(try coders.decode(data, options: DecodingOptions(appliesPNGGamma: false)).pixels == kept.pixels)
        #expect(try coders.decode(data, options: .default).pixels == image.pixels)
        #expect(kept.colorProfile != nil && kept.pixels[1, 0] == RGBA(red: 200, green: 100, blue: 50))
    }

    @Test func srgbChunkWinsOverGamma() throws {
        let data = try png(with: [("sRGB", [0]), ("gAMA", bigEndian([100_000]))])
        #expect(try coders.decode(data, options: gamma).pixels[0, 0].red == 128)
    }
}
