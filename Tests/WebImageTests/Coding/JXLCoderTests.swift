import Foundation
import Testing

@testable import WebImage

/// JPEG XL through libjxl: the fixtures against djxl's decodes, header information, orientation, animation, colour,
/// hostile headers, and encoding round trips.
@Suite struct JXLCoderTests {
    /// The JPEG XL entries of the formats manifest.
    static let fixtures = FormatsFixture.all.filter { $0.format == "jxl" }

    private static func name(_ fixture: FormatsFixture) -> String {
        URL(fileURLWithPath: fixture.file).lastPathComponent
    }

    /// A bare codestream whose size header declares 200000x100000 pixels, and nothing after it. An array, not `Data`:
    /// LeakSanitizer takes a global `Data` for a leak (docs/reliability.md).
    static let hugeHeader: [UInt8] =
        [0xFF, 0x0A, 0xFE, 0x34, 0x0C, 0x00, 0xF0, 0x4F, 0xC3, 0x00, 0x10] + Array(repeating: 0, count: 16)

    /// A bare codestream whose header declares 4000x4000 pixels (16 megapixels, within the default limits) with
    /// 4,096 extra channels (the most JPEG XL allows): 262 GB of libjxl planes. Header only, 16 zero bytes after it.
    static let extraChannelsHeader: [UInt8] = {
        var bits: [Bool] = []
        func put(_ value: Int, _ count: Int) { for bit in 0..<count { bits.append(value >> bit & 1 == 1) } }
        put(0, 1)  // SizeHeader: not small
        put(1, 2)  // ysize - 1 in 13 bits
        put(3999, 13)
        put(1, 3)  // aspect ratio 1:1
        put(0, 1)  // ImageMetadata: not all default
        put(0, 1)  // no extra fields
        put(0, 3)  // bit depth: integer, 8 bits
        put(1, 1)  // 16-bit buffers suffice
        put(3, 2)  // num_extra_channels: 1 + 12 bits
        put(4095, 12)
        for _ in 0..<4096 { put(1, 1) }  // each extra channel all default (8-bit alpha)
        put(1, 1)  // XYB
        put(1, 1)  // colour encoding all default (sRGB)
        put(0, 2)  // no extensions
        var bytes = [UInt8](repeating: 0, count: (bits.count + 7) / 8)
        for (index, bit) in bits.enumerated() where bit { bytes[index / 8] |= 1 << (index % 8) }
        return [0xFF, 0x0A] + bytes + Array(repeating: 0, count: 16)
    }()

    @Test func everyVariantHasAFixture() {
        #expect(Self.fixtures.count == 13)
    }

    /// libjxl 0.7 allocates its planes outside any memory manager: the planes the header declares are checked against
    /// the budget before any frame is decoded.
    @Test func extraChannelsBeyondTheBudgetAreRefusedFromTheHeader() throws {
        let data = Data(Self.extraChannelsHeader)
        let info = try ImageCoders.default.info(of: data)
        #expect(info.width == 4000 && info.height == 4000)
        let error = #expect(throws: WebImageError.self) {
            _ = try ImageCoders.default.decode(data, options: .default)
        }
        #expect(error?.code == .tooLarge)
        #expect(error?.message.contains("4096 extra channels") == true, "\(String(describing: error))")
        // The budget follows the limits: the lossy fixture's planes (128x96, 3 colour planes) pass a budget of
        // a few hundred kilobytes only when the limits allow it.
        #expect(JXLDecoder.memoryCap(for: DecodingLimits(maxTotalBytes: 1 << 20)) == 4 << 20 + 64 << 20)
        #expect(JXLDecoder.memoryCap(for: DecodingLimits(maxTotalBytes: .max)) == .max)
    }

    /// libjxl allocates through the budget: a decode records its peak, and a budget too small for libjxl's own
    /// objects ends in the typed error rather than a crash.
    @Test func libjxlAllocatesThroughTheBudget() throws {
        let data = try FormatsFixture.image("jxl_alpha.jxl")
        let events = JXLDecoder.decodingEvents
        try data.withUnsafeBytes { bytes in
            let decoder = try JXLDecoder(bytes, events: events, threads: 2, memoryCap: 64 << 20)
            _ = try decoder.decode(options: .default)
            #expect(decoder.memoryPeak > 0 && decoder.memoryPeak <= 64 << 20)
            for cap in [0, 1024] {
                let error = #expect(throws: WebImageError.self) {
                    _ = try JXLDecoder(bytes, events: events, threads: 2, memoryCap: cap)
                }
                #expect(error?.code == .tooLarge, "cap \(cap)")
            }
            // The planes of a decode that passed its limits, against a budget smaller than them.
            let small = try JXLDecoder(bytes, events: events, memoryCap: 128 * 96 * 16 - 1)
            let error = #expect(throws: WebImageError.self) { _ = try small.decode(options: .default) }
            #expect(error?.code == .tooLarge)
        }
    }

    @Test func bothContainerKindsAreSniffed() throws {
        #expect(ImageFormat.sniff(try FormatsFixture.image("jxl_lossy.jxl")) == .jxl)
        #expect(ImageFormat.sniff(try FormatsFixture.image("jxl_16bit.jxl")) == .jxl)
        #expect(try FormatsFixture.image("jxl_16bit.jxl").prefix(4) == Data([0, 0, 0, 0x0C]))
        #expect(ImageFormat(fileExtension: "jxl") == .jxl)
        #expect(ImageFormat.jxl.mimeType == "image/jxl")
    }

    @Test(arguments: fixtures)
    func infoMatchesTheDecode(_ fixture: FormatsFixture) throws {
        let info = try ImageCoders.default.info(of: try fixture.data())
        let name = Self.name(fixture)
        #expect(info.format == .jxl)
        #expect(info.uprightSize == PixelSize(width: fixture.width, height: fixture.height))
        #expect(info.frameCount == fixture.frames)
        #expect(info.orientation == (["jxl_orient6.jxl", "jxl_meta_brob.jxl"].contains(name) ? .right : .up))
        #expect(info.hasAlpha == ["jxl_alpha.jxl", "jxl_anim.jxl"].contains(name))
    }

    @Test func animationKeepsItsTiming() throws {
        let data = try FormatsFixture.image("jxl_anim.jxl")
        let image = try ImageCoders.default.decode(data, options: .default)
        #expect(image.frames.map(\.duration) == [0.1, 0.1, 0.25, 0.25])
        #expect(image.loopCount == 0)
        #expect(image.frames[0].pixels != image.frames[2].pixels)
        let first = try ImageCoders.default.decode(data, options: DecodingOptions(firstFrameOnly: true))
        #expect(first.frames.count == 1)
        #expect(first.pixels == image.pixels)
    }

    @Test func orientationIsAppliedUnlessTurnedOff() throws {
        let data = try FormatsFixture.image("jxl_orient6.jxl")
        let upright = try ImageCoders.default.decode(data, options: .default)
        #expect(upright.size == PixelSize(width: 96, height: 128))
        #expect(upright.sourceOrientation == .right)
        let stored = try ImageCoders.default.decode(data, options: DecodingOptions(appliesOrientation: false))
        #expect(stored.size == PixelSize(width: 128, height: 96))
        #expect(stored.pixels.oriented(from: .right) == upright.pixels)
    }

    /// The lossless P3 file keeps its profile (and its P3 pixels) when asked, and is converted to sRGB otherwise.
    @Test func profileIsKeptOrApplied() throws {
        let data = try FormatsFixture.image("jxl_p3_lossless.jxl")
        let kept = try ImageCoders.default.decode(data, options: DecodingOptions(keepsColorProfile: true))
        let converted = try ImageCoders.default.decode(data, options: .default)
        #expect(kept.colorProfile != nil)
        #expect(converted.colorProfile == nil)
        #expect(ReferenceImage.difference(kept.pixels, converted.pixels).max > 12)
        #expect(try ImageCoders.default.encode(kept, as: .jxl, options: EncodingOptions(lossless: true)).count > 0)
    }

    @Test func limitsAreCheckedFromTheHeader() throws {
        let huge = Data(Self.hugeHeader)
        #expect(ImageFormat.sniff(huge) == .jxl)
        let error = #expect(throws: WebImageError.self) {
            _ = try ImageCoders.default.decode(huge, options: .default)
        }
        #expect(error?.code == .tooLarge)
        let small = DecodingOptions(limits: DecodingLimits(maxPixelsPerFrame: 1000))
        let refused = #expect(throws: WebImageError.self) {
            _ = try ImageCoders.default.decode(try FormatsFixture.image("jxl_lossy.jxl"), options: small)
        }
        #expect(refused?.code == .tooLarge)
        let twoFrames = DecodingOptions(limits: DecodingLimits(maxFrames: 2))
        let frames = #expect(throws: WebImageError.self) {
            _ = try ImageCoders.default.decode(try FormatsFixture.image("jxl_anim.jxl"), options: twoFrames)
        }
        #expect(frames?.code == .tooLarge)
    }

    @Test(arguments: fixtures)
    func aCutFileIsTruncatedData(_ fixture: FormatsFixture) throws {
        let data = try fixture.data()
        // 12 bytes: enough to recognise the container's signature box (2 for a bare codestream). The last cut of
        // jxl_meta_plain.jxl falls in the box after its codestream (JXLMetadataTests).
        let last = Self.name(fixture) == "jxl_meta_plain.jxl" ? [] : [data.count - 8]
        for cut in [12, data.count / 2] + last {
            let error = #expect(throws: WebImageError.self, "cut at \(cut)") {
                _ = try ImageCoders.default.decode(data.prefix(cut), options: .default)
            }
            #expect(error?.code == .truncatedData, "cut at \(cut): \(String(describing: error))")
        }
    }

    @Test func qualityAndSpeedMapAsDocumented() {
        #expect(JXLCoder.distance(forQuality: 90) == 1.0)
        #expect(abs(JXLCoder.distance(forQuality: 30) - 6.4) < 0.001)
        #expect(JXLCoder.distance(forQuality: 0) == 15)
        #expect(JXLCoder.distance(forQuality: -5) == 15)
        #expect(JXLCoder.distance(forQuality: 80) > JXLCoder.distance(forQuality: 85))
        #expect(JXLCoder.effort(forSpeed: 0) == 9)
        #expect(JXLCoder.effort(forSpeed: 10) == 1)
        #expect(JXLCoder.effort(forSpeed: JXLCoder.defaultSpeed) == 3)
        #expect(JXLCoder.effort(forSpeed: 99) == 1)
    }

    @Test func losslessRoundTripIsExact() throws {
        for alpha in [false, true] {
            let image = Image.gradient(width: 61, height: 37, alpha: alpha)
            let data = try ImageCoders.default.encode(image, as: .jxl, options: EncodingOptions(lossless: true))
            #expect(ImageFormat.sniff(data) == .jxl)
            let decoded = try ImageCoders.default.decode(data, options: .default)
            #expect(decoded.pixels == image.pixels)
            #expect(decoded.isOpaque == !alpha)
        }
    }

    @Test func lossyRoundTripIsCloseAndQualityOrdersSizes() throws {
        let image = Image.gradient(width: 96, height: 64, alpha: true)
        let high = try ImageCoders.default.encode(image, as: .jxl, options: EncodingOptions(quality: 95))
        let low = try ImageCoders.default.encode(image, as: .jxl, options: EncodingOptions(quality: 40))
        #expect(high.count > low.count)
        let decoded = try ImageCoders.default.decode(high, options: .default)
        let difference = ReferenceImage.difference(decoded.pixels, image.pixels)
        #expect(difference.mean < 2, "mean difference \(difference.mean)")
    }

    @Test func animationRoundTripKeepsFramesAndDurations() throws {
        let source = try ImageCoders.default.decode(try FormatsFixture.image("jxl_anim.jxl"), options: .default)
        let data = try ImageCoders.default.encode(source, as: .jxl, options: EncodingOptions(lossless: true))
        let decoded = try ImageCoders.default.decode(data, options: .default)
        #expect(decoded.frames.count == 4)
        #expect(decoded.frames.map(\.duration) == source.frames.map(\.duration))
        #expect(decoded.frames.map(\.pixels) == source.frames.map(\.pixels))
        let still = try ImageCoders.default.encode(source, as: .jxl, options: EncodingOptions(firstFrameOnly: true))
        #expect(try ImageCoders.default.info(of: still).frameCount == 1)
    }
}
