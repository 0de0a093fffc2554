import Foundation
import Testing
import WebImage
import WebImageTesting

/// The high-bit-depth sources beyond 16-bit PNG and TIFF (`Tests/Fixtures/formats/tools/make_deep.sh`): HEIC of 10 and
/// 12 bits and the thumbnails of HEIC and AVIF files, TIFFs of 32-bit float and unsigned samples, and 16-bit grey with
/// a grey profile, each against libvips' 16-bit decode of the same file.
@Suite struct HighBitDepthSourceTests {
    static let deep: DecodingOptions = {
        var options = DecodingOptions(keepsColorProfile: true, appliesPNGGamma: false)
        options.keepsHighBitDepth = true
        return options
    }()

    /// A 16-bit reference PNG of `expected/`, as libvips wrote it.
    static func reference(_ name: String) throws -> PixelBuffer16 {
        let image = try PNGCoder().decode(try Fixtures.data("formats/expected/\(name)"), options: deep)
        return try #require(image.frames[0].deepPixels, "\(name) is not 16-bit")
    }

    /// The largest difference between two buffers' samples, or `Int.max` when their sizes differ.
    static func maxDifference(_ first: PixelBuffer16, _ second: PixelBuffer16, colorsOnly: Bool = false) -> Int {
        guard first.size == second.size else { return .max }
        return zip(first.samples, second.samples).enumerated().reduce(0) { largest, pair in
            colorsOnly && pair.offset % 4 == 3 ? largest : max(largest, abs(Int(pair.element.0) - Int(pair.element.1)))
        }
    }

    /// libvips' HEIF sample (shifted left to fill 16 bits) of `bits` bits, scaled as the decoder scales it.
    static func scaled(_ shifted: UInt16, bits: Int) -> UInt16 {
        let maximum = UInt32(1 << bits) - 1
        return UInt16((UInt32(shifted >> (16 - bits)) * 65535 + maximum / 2) / maximum)
    }

    @Test(arguments: [("heic_10bit.heic", 10), ("heic_12bit.heic", 12), ("heic_10bit_alpha.heic", 10)])
    func heicOfMoreThanEightBitsKeepsEverySample(name: String, bits: Int) throws {
        let data = try Fixtures.data("formats/images/\(name)")
        let image = try HEICCoder().decode(data, options: Self.deep)
        let deep = try #require(image.frames[0].deepPixels, "\(name)")
        let reference = try Self.reference("\(name).16.png")
        #expect(deep.size == reference.size)
        let expected = PixelBuffer16(
            width: reference.width, height: reference.height,
            samples: reference.samples.map { Self.scaled($0, bits: bits) })
        #expect(Self.maxDifference(deep, expected) == 0, "\(name)")
        #expect(deep.samples.contains { $0 % 257 != 0 })
        // The 8-bit decode (libheif's own reduction, which truncates) is within a step of the rounding.
        let plain = try HEICCoder().decode(data, options: .default)
        #expect(plain.frames[0].deepPixels == nil)
        let steps = zip(plain.pixels.bytes, deep.narrowed.bytes).map { abs(Int($0) - Int($1)) }
        #expect(steps.max() ?? 0 <= 1, "\(name)")
    }

    @Test(arguments: ["heic_10bit_thumb.heic", "avif_10bit_thumb.avif"])
    func aThumbnailOfTenBitsKeepsEverySample(name: String) throws {
        var options = Self.deep
        options.prefersThumbnail = true
        let image = try ImageCoders.default.decode(try Fixtures.data("formats/images/\(name)"), options: options)
        let deep = try #require(image.frames[0].deepPixels, "\(name)")
        #expect(deep.size == PixelSize(width: 32, height: 24))
        let reference = try Self.reference("\(name).thumb16.png")
        let expected = PixelBuffer16(
            width: reference.width, height: reference.height,
            samples: reference.samples.map { Self.scaled($0, bits: 10) })
        #expect(Self.maxDifference(deep, expected) == 0, "\(name)")
        // Without the option, the same thumbnail at 8 bits.
        options.keepsHighBitDepth = false
        let plain = try ImageCoders.default.decode(try Fixtures.data("formats/images/\(name)"), options: options)
        #expect(plain.frames[0].deepPixels == nil && plain.size == deep.size)
    }

    /// sRGB's curve on a linear value, clamped, at 16 bits.
    static func encoded(_ linear: Double) -> UInt16 {
        let value = min(max(linear, 0), 1)
        let curve = value <= 0.003_130_8 ? value * 12.92 : 1.055 * pow(value, 1 / 2.4) - 0.055
        return UInt16(curve * 65535 + 0.5)
    }

    @Test func floatTIFFsAreLinearLightEncodedToSixteenBits() throws {
        for name in ["tiff_float_rgb.tif", "tiff_float_rgba.tif"] {
            let data = try Fixtures.data("formats/images/\(name)")
            let deep = try #require(try TIFFCoder().decode(data, options: Self.deep).frames[0].deepPixels)
            // libvips' scRGB to RGB16 goes through a table: within a few steps of 65535.
            #expect(Self.maxDifference(deep, try Self.reference("\(name).16.png"), colorsOnly: true) <= 4, "\(name)")
            // Every value from make_deep.py's formula (clamped below 0 and above 1).
            for (x, y) in [(0, 0), (31, 0), (13, 7), (31, 23)] {
                let pixel = deep[x, y]
                let red = Double(Float(Double(x) / 28 - 0.05))
                #expect(pixel.red == Self.encoded(red), "\(name) \(x),\(y)")
                #expect(pixel.green == Self.encoded(Double(Float(Double(y) / 21))), "\(name) \(x),\(y)")
                let alpha = name.contains("rgba") ? UInt16(Double(Float(0.1 + Double(x) / 40)) * 65535 + 0.5) : .max
                #expect(pixel.alpha == alpha, "\(name) \(x),\(y)")
            }
            // Read without the option too (libtiff's RGBA conversion cannot), rounded to 8 bits.
            let plain = try TIFFCoder().decode(data, options: .default)
            #expect(plain.frames[0].deepPixels == nil && plain.pixels == deep.narrowed)
        }
        let grey = try TIFFCoder().decode(try Fixtures.data("formats/images/tiff_float_grey.tif"), options: Self.deep)
        let levels = try #require(grey.frames[0].deepPixels)
        #expect(levels.isGrey && levels[20, 5].red == Self.encoded(Double(Float(20.0 / 28 - 0.05))))
    }

    @Test func unsignedThirtyTwoBitTIFFSamplesAreScaledToSixteenBits() throws {
        let data = try Fixtures.data("formats/images/tiff_uint32_rgb.tif")
        let deep = try #require(try TIFFCoder().decode(data, options: Self.deep).frames[0].deepPixels)
        func scaled(_ value: UInt64) -> UInt16 { UInt16((value * 65535 + 2_147_483_647) / 4_294_967_295) }
        for (x, y) in [(0, 0), (31, 0), (9, 17), (31, 23)] {
            let (column, row) = (UInt64(x), UInt64(y))
            #expect(
                deep[x, y]
                    == RGBA16(
                        red: scaled(column * 130_000_000 + row * 1000 + 7), green: scaled(row * 170_000_000 + 65_535),
                        blue: scaled(4_294_967_295 - column * row * 99_999)), "\(x),\(y)")
        }
        #expect(try TIFFCoder().decode(data, options: .default).pixels == deep.narrowed)
    }

    @Test(arguments: ["png_grey16_linear.png", "tiff_grey16_linear.tif"])
    func aGreyProfileIsAppliedToSixteenBitLevels(name: String) throws {
        let data = try Fixtures.data("formats/images/\(name)")
        var options = Self.deep
        options.keepsColorProfile = false
        let image = try ImageCoders.default.decode(data, options: options)
        let deep = try #require(image.frames[0].deepPixels, "\(name)")
        #expect(deep.isGrey && image.colorProfile == nil)
        // A linear profile brightens every level but black and white: vips' 16-bit transform to sRGB's curve.
        #expect(Self.maxDifference(deep, try Self.reference("\(name).16.png")) <= 2, "\(name)")
        #expect(deep[10, 10].red > 35000)
        // The 8-bit decode applies the profile to levels already rounded to 8 bits: the linear curve is steep near
        // black (8-bit level 1 becomes 13), so dark levels differ by a few steps, the rest by one at most.
        let plain = try ImageCoders.default.decode(data, options: DecodingOptions(appliesPNGGamma: false))
        let steps = zip(plain.pixels.bytes, deep.narrowed.bytes).map { abs(Int($0) - Int($1)) }
        #expect(steps.max() ?? 0 <= 8, "\(name)")
        let bright = zip(plain.pixels.bytes, deep.narrowed.bytes).filter { $0.1 >= 128 }.map { abs(Int($0) - Int($1)) }
        #expect(bright.max() ?? 0 <= 1, "\(name)")
    }

    @Test func aSixteenBitGreyJPEGXLAppliesItsGreyProfileAsThePNGDoes() throws {
        // cjxl's lossless copy of png_grey16_linear.png: the same levels and profile give the same 16-bit pixels.
        var options = Self.deep
        options.keepsColorProfile = false
        let jxl = try ImageCoders.default.decode(
            try Fixtures.data("formats/images/jxl_grey16_linear.jxl"), options: options)
        let png = try ImageCoders.default.decode(
            try Fixtures.data("formats/images/png_grey16_linear.png"), options: options)
        let deep = try #require(jxl.frames[0].deepPixels)
        #expect(deep.isGrey && deep == png.frames[0].deepPixels)
    }
}
