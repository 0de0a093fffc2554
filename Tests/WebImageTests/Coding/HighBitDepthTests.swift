import Foundation
import Testing
import WebImage
import WebImageTesting

/// 16-bit samples (``DecodingOptions/keepsHighBitDepth``): the PNG and TIFF decoders keep them exactly, the encoders
/// write them, and crop, orientation, resize, flatten and embed keep their low bytes.
@Suite struct HighBitDepthTests {
    static let deep: DecodingOptions = {
        var options = DecodingOptions(keepsColorProfile: true)
        options.keepsHighBitDepth = true
        return options
    }()

    /// A 16-bit gradient whose low bytes differ from their high bytes: `grey` makes the three colours equal, `alpha`
    /// a ramp of transparency.
    static func gradient(width: Int = 37, height: Int = 23, grey: Bool = false, alpha: Bool = false) -> PixelBuffer16 {
        PixelBuffer16(width: width, height: height) { output in
            for y in 0..<height {
                for x in 0..<width {
                    let index = (y * width + x) * 4
                    let base = UInt16(truncatingIfNeeded: x * 1700 + y * 900 + 37)
                    output[index] = base
                    output[index + 1] = grey ? base : base &+ 4097
                    output[index + 2] = grey ? base : base &* 3
                    output[index + 3] = alpha ? UInt16(truncatingIfNeeded: 30000 + x * 777 + y) : .max
                }
            }
        }
    }

    /// The bit depth and colour type of a PNG's `IHDR`.
    static func header(_ png: Data) -> (depth: UInt8, colorType: UInt8) {
        let bytes = [UInt8](png.prefix(26))
        return (bytes[24], bytes[25])
    }

    static func still(_ pixels: PixelBuffer16) -> Image { Image(frames: [ImageFrame(deepPixels: pixels)]) }

    @Test(arguments: [(false, false, UInt8(2)), (false, true, 6), (true, false, 0), (true, true, 4)])
    func pngRoundTripKeepsEverySample(grey: Bool, alpha: Bool, colorType: UInt8) throws {
        let pixels = Self.gradient(grey: grey, alpha: alpha)
        let png = try PNGCoder().encode(Self.still(pixels), as: .png, options: .default)
        #expect(Self.header(png) == (16, colorType))
        let decoded = try PNGCoder().decode(png, options: Self.deep)
        #expect(decoded.frames[0].deepPixels == pixels)
        #expect(decoded.pixels == pixels.narrowed)
        // Without the option, the same file decodes to 8 bits, the same rounding.
        let plain = try PNGCoder().decode(png, options: .default)
        #expect(plain.frames[0].deepPixels == nil)
        #expect(plain.pixels == pixels.narrowed)
    }

    @Test(arguments: [false, true])
    func tiffRoundTripKeepsEverySample(grey: Bool) throws {
        for alpha in [false, true] {
            let pixels = Self.gradient(grey: grey, alpha: alpha)
            let tiff = try TIFFCoder().encode(Self.still(pixels), as: .tiff, options: .default)
            let decoded = try TIFFCoder().decode(tiff, options: Self.deep)
            #expect(decoded.frames[0].deepPixels == pixels, "grey \(grey), alpha \(alpha)")
        }
    }

    /// Widening scales every 8-bit value onto the 16-bit range (v × 257) and rounding back gives it again.
    @Test func wideningThenNarrowingGivesBackEveryValue() {
        let pixels = PixelBuffer(width: 64, height: 4, bytes: (0..<1024).map { UInt8($0 % 256) })
        let wide = PixelBuffer16(widening: pixels)
        #expect(wide.samples.count == 1024 && wide.samples[255] == 65535 && wide.samples[128] == 128 * 257)
        #expect(wide.narrowed == pixels)
    }

    @Test func eightBitSourcesDecodeWithoutDeepPixels() throws {
        let pixels = PixelBuffer(width: 5, height: 4, filledWith: RGBA(red: 10, green: 200, blue: 30))
        for format in [ImageFormat.png, .tiff] {
            let data = try ImageCoders.default.encode(Image(pixels: pixels), as: format, options: .default)
            let decoded = try ImageCoders.default.decode(data, options: Self.deep)
            #expect(decoded.frames[0].deepPixels == nil)
            #expect(decoded.pixels == pixels)
        }
        // An 8-bit frame is written with 8-bit samples.
        let png = try PNGCoder().encode(Image(pixels: pixels), as: .png, options: .default)
        #expect(Self.header(png) == (8, 2))
    }

    @Test func theGrey16TIFFFixtureDecodesToItsExactValues() throws {
        // tools/make_tiff.py: Pillow's "I;16" image of (x * 1700 + y * 900 + 37) % 65536, 37x23, Deflate.
        let image = try TIFFCoder().decode(try Fixtures.data("formats/images/tiff_gray16.tif"), options: Self.deep)
        let deep = try #require(image.frames[0].deepPixels)
        #expect(deep.size == PixelSize(width: 37, height: 23))
        for (x, y) in [(0, 0), (36, 0), (5, 17), (36, 22)] {
            let value = UInt16((x * 1700 + y * 900 + 37) % 65536)
            #expect(deep[x, y] == RGBA16(red: value, green: value, blue: value), "\(x),\(y)")
        }
    }

    @Test func theBigEndianRGB16TIFFFixtureKeepsItsLowBytes() throws {
        // tools/make_tiff.py: each sample is c * 256 + (x * 7 + y * 3) % 256, big-endian.
        let image = try TIFFCoder().decode(try Fixtures.data("formats/images/tiff_rgb16_be.tif"), options: Self.deep)
        let deep = try #require(image.frames[0].deepPixels)
        for (x, y) in [(0, 0), (20, 3), (36, 22)] {
            let low = UInt16((x * 7 + y * 3) % 256)
            let pixel = deep[x, y]
            #expect([pixel.red, pixel.green, pixel.blue].allSatisfy { $0 & 255 == low }, "\(x),\(y): \(pixel)")
        }
    }

    @Test func pngSuiteSixteenBitFilesKeepLowBytes() throws {
        // Their gAMA chunk (1.0) would be applied, at 8 bits, by the library's default decode: ignored here, as the
        // server ignores it.
        var options = Self.deep
        options.appliesPNGGamma = false
        let names = ["basi0g16", "basi2c16", "basi4a16", "basi6a16", "oi1n2c16", "tbbn2c16"]
        for name in names.map({ "pngsuite_\($0).png" }) {
            let data = try Fixtures.data("corpus/images/\(name)")
            let image = try PNGCoder().decode(data, options: options)
            let deep = try #require(image.frames[0].deepPixels, "\(name)")
            let plain = try PNGCoder().decode(data, options: DecodingOptions(appliesPNGGamma: false))
            #expect(plain.pixels == deep.narrowed, "\(name)")
            #expect(deep.samples.contains { $0 % 257 != 0 }, "\(name): only 8-bit values")
            let again = try PNGCoder().decode(
                try PNGCoder().encode(image, as: .png, options: .default), options: options)
            #expect(again.frames[0].deepPixels == deep, "\(name)")
        }
    }

    @Test func cropAndOrientationMoveSamplesExactly() {
        let pixels = Self.gradient(alpha: true)
        let rect = PixelRect(x: 3, y: 5, width: 10, height: 7)
        let cropped = pixels.cropped(to: rect)
        #expect(cropped[0, 0] == pixels[3, 5] && cropped[9, 6] == pixels[12, 11])
        let turned = pixels.oriented(from: .right)
        #expect(turned.size == PixelSize(width: 23, height: 37))
        // The 16-bit pixels turn exactly as their 8-bit rounding does.
        for orientation in (1...8).compactMap(ImageOrientation.init(rawValue:)) {
            #expect(pixels.oriented(from: orientation).narrowed == pixels.narrowed.oriented(from: orientation))
        }
    }

    @Test func resizingAConstantImageKeepsItsValueExactly() {
        let value: UInt16 = 12345
        let pixels = PixelBuffer16(width: 40, height: 30) { output in
            for index in stride(from: 0, to: output.count, by: 4) {
                (output[index], output[index + 1], output[index + 2], output[index + 3]) = (value, value, value, .max)
            }
        }
        for size in [PixelSize(width: 13, height: 7), PixelSize(width: 100, height: 61)] {
            for linear in [false, true] {
                let resized = Resampler(filter: .lanczos3, linearLight: linear).resample(pixels, to: size)
                #expect(resized.size == size)
                #expect(resized.samples.enumerated().allSatisfy { $0.offset % 4 == 3 || $0.element == value })
            }
        }
    }

    @Test func resizingFollowsTheEightBitResizeWithinRounding() {
        let pixels = Self.gradient(width: 64, height: 48, alpha: true)
        let size = PixelSize(width: 20, height: 15)
        let wide = Resampler().resample(pixels, to: size).narrowed
        let narrow = Resampler().resample(pixels.narrowed, to: size)
        let difference = zip(wide.bytes, narrow.bytes).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(difference <= 2)
    }

    @Test func flattenAndEmbedWorkAtSixteenBits() throws {
        let pixels = PixelBuffer16(width: 2, height: 1, samples: [1000, 2000, 3000, 65535, 60000, 60000, 60000, 0])
        let flat = pixels.flattened(over: RGBA(red: 255, green: 0, blue: 0))
        #expect(flat[0, 0] == RGBA16(red: 1000, green: 2000, blue: 3000))
        #expect(flat[1, 0] == RGBA16(red: 65535, green: 0, blue: 0))
        let placed = try pixels.embedded(
            in: PixelSize(width: 4, height: 3), x: 1, y: 1, background: RGBA(red: 0, green: 0, blue: 255))
        #expect(placed[0, 0] == RGBA16(red: 0, green: 0, blue: 65535))
        #expect(placed[1, 1] == pixels[0, 0] && placed[2, 1] == pixels[1, 0])
        #expect(throws: WebImageError.self) {
            try pixels.embedded(in: PixelSize(width: 0, height: 3), x: 0, y: 0, background: .clear)
        }
    }

    @Test func colourDescriptionsAreKeptOrConvertedAtSixteenBits() throws {
        // basi2c16 has a gAMA of 1.0: an RGB profile (PNGGammaProfile), kept with the pixels as they are, or applied
        // at 16 bits while decoding.
        let rgb = try Fixtures.data("corpus/images/pngsuite_basi2c16.png")
        let kept = try PNGCoder().decode(rgb, options: Self.deep)
        let raw = try #require(kept.frames[0].deepPixels)
        #expect(kept.colorProfile != nil)
        var converting = Self.deep
        converting.keepsColorProfile = false
        let converted = try PNGCoder().decode(rgb, options: converting)
        #expect(converted.colorProfile == nil)
        #expect(try #require(converted.frames[0].deepPixels) != raw)
        #expect(converted.frames[0].deepPixels == kept.convertedToSRGB().frames[0].deepPixels)
        // A gAMA profile is RGB: it does not describe a grey source, which decodes as the 8-bit decode does.
        let grey = try Fixtures.data("corpus/images/pngsuite_basi0g16.png")
        let greyDeep = try #require(try PNGCoder().decode(grey, options: converting).frames[0].deepPixels)
        #expect(try PNGCoder().decode(grey, options: .default).pixels == greyDeep.narrowed)
    }

    /// The bits of the first channel in an AVIF's `pixi` property, or 0.
    static func pixiDepth(_ avif: Data) -> UInt8 {
        let bytes = [UInt8](avif)
        guard let at = (0..<max(bytes.count - 10, 0)).first(where: { bytes[$0..<($0 + 4)].elementsEqual("pixi".utf8) })
        else { return 0 }
        // The box type, then version and flags (4 bytes), the channel count, each channel's bits.
        return bytes[at + 9]
    }

    @Test func avifAndJPEGXLResultsKeepMoreThanEightBits() throws {
        // A smooth picture: AV1's 4:2:0 chroma and libavif's 8-bit and 16-bit conversions agree on it.
        let pixels = PixelBuffer16(width: 64, height: 48) { output in
            for y in 0..<48 {
                for x in 0..<64 {
                    let index = (y * 64 + x) * 4
                    (output[index], output[index + 1]) = (UInt16(x * 1000 + 77), UInt16(y * 1300 + 5))
                    (output[index + 2], output[index + 3]) = (30011, .max)
                }
            }
        }
        let avif = try ImageCoders.default.encode(Self.still(pixels), as: .avif, options: .default)
        #expect(Self.pixiDepth(avif) == 12)
        // Read back at 16 bits: 12-bit samples scaled, close to the source, as the 8-bit decode is.
        let back16 = try #require(try ImageCoders.default.decode(avif, options: Self.deep).frames[0].deepPixels)
        #expect(back16.samples.contains { $0 % 257 != 0 })
        let back8 = try ImageCoders.default.decode(avif, options: .default).pixels
        for decoded in [back16.narrowed, back8] {
            let error = zip(decoded.bytes, pixels.narrowed.bytes).map { abs(Int($0) - Int($1)) }
            #expect(Double(error.reduce(0, +)) / Double(error.count) < 2)
        }
        let eightBit = try ImageCoders.default.encode(Image(pixels: pixels.narrowed), as: .avif, options: .default)
        #expect(Self.pixiDepth(eightBit) == 8)
        #expect(try ImageCoders.default.decode(eightBit, options: Self.deep).frames[0].deepPixels == nil)
        // A lossless 16-bit JPEG XL decodes (to 8 bits here) to the rounding of its samples.
        let jxl = try ImageCoders.default.encode(
            Self.still(Self.gradient(alpha: true)), as: .jxl, options: EncodingOptions(lossless: true))
        let back = try ImageCoders.default.decode(jxl, options: .default)
        let differences = zip(back.pixels.bytes, Self.gradient(alpha: true).narrowed.bytes).map {
            abs(Int($0) - Int($1))
        }
        #expect(differences.max() ?? 0 <= 1)
        // Read back at 16 bits, a lossless file gives every sample back.
        let exact = try ImageCoders.default.decode(jxl, options: Self.deep)
        #expect(exact.frames[0].deepPixels == Self.gradient(alpha: true))
    }

    @Test func theSixteenBitJPEGXLFixtureDecodesAtSixteenBits() throws {
        let data = try Fixtures.data("formats/images/jxl_16bit.jxl")
        let image = try ImageCoders.default.decode(data, options: Self.deep)
        let deep = try #require(image.frames[0].deepPixels)
        #expect(deep.samples.contains { $0 % 257 != 0 })
        let plain = try ImageCoders.default.decode(data, options: .default)
        let differences = zip(plain.pixels.bytes, deep.narrowed.bytes).map { abs(Int($0) - Int($1)) }
        #expect(differences.max() ?? 0 <= 1)
    }

    @Test func anRGBProfileIsConvertedAtSixteenBits() throws {
        let profile = try Fixtures.data("formats/DisplayP3.icc")
        let pixels = Self.gradient(alpha: true)
        let image = Image(frames: [ImageFrame(deepPixels: pixels)], colorProfile: profile)
        let converted = image.convertedToSRGB()
        let deep = try #require(converted.frames[0].deepPixels)
        #expect(converted.colorProfile == nil && deep != pixels)
        // Alpha is copied.
        #expect(stride(from: 3, to: deep.samples.count, by: 4).allSatisfy { deep.samples[$0] == pixels.samples[$0] })
        // The 8-bit conversion of the 8-bit rounding agrees within rounding.
        let narrow = Image(frames: [ImageFrame(pixels: pixels.narrowed)], colorProfile: profile).convertedToSRGB()
            .pixels
        let differences = zip(deep.narrowed.bytes, narrow.bytes).map { abs(Int($0) - Int($1)) }
        #expect(Double(differences.reduce(0, +)) / Double(differences.count) <= 1)
        #expect(differences.max() ?? 0 <= 8)
    }

    @Test func aDeepFrameTooLargeForTheLimitsIsRefused() throws {
        let png = try PNGCoder().encode(Self.still(Self.gradient()), as: .png, options: .default)
        var options = Self.deep
        options.limits = DecodingLimits(maxPixelsPerFrame: 10_000, maxTotalBytes: 37 * 23 * 8)
        #expect(throws: WebImageError.self) { try PNGCoder().decode(png, options: options) }
    }
}
