import Foundation
import Testing
import WebImage
import WebImageTesting

@testable import WebImageServer

/// `strip_color_profile`: the steps run on a Display P3 source's own numbers; by default the result is converted to
/// sRGB pixels without a profile at the end; with `strip_color_profile:0` the pixels stay P3 and the result carries
/// the source's profile, where the format has room for one (imgproxy's `colorspaceToResult`).
@Suite("Server: strip_color_profile")
struct ColorProfileOptionTests {
    private let processor = ImageProcessor(coders: ImageCoders.default, limits: ServerLimits())
    private let keeping = DecodingOptions(keepsColorProfile: true)

    private func options(strip: Bool) -> ProcessingOptions {
        var options = ProcessingOptions()
        options.width = 64
        options.quality = 100
        options.stripColorProfile = strip
        return options
    }

    @Test(arguments: [ImageFormat.jpeg, .png, .webp, .avif])
    func theProfileIsConvertedByDefaultAndKeptOnRequest(format: ImageFormat) throws {
        let source = try Fixtures.data("formats/images/jpeg_p3.jpg")
        let profile = try #require(try ImageCoders.default.decode(source, options: keeping).colorProfile)

        let stripped = try processor.process(source, options: options(strip: true), format: format)
        #expect(try ImageCoders.default.decode(stripped.data, options: keeping).colorProfile == nil)

        let kept = try processor.process(source, options: options(strip: false), format: format)
        let keptImage = try ImageCoders.default.decode(kept.data, options: keeping)
        #expect(keptImage.colorProfile == profile)
        let strippedPixels = try ImageCoders.default.decode(stripped.data, options: .default).pixels
        // Unconverted P3 numbers differ from their sRGB equivalents; converted on decode, they agree again, up to the
        // two lossy encodings.
        let shift = Self.meanDifference(keptImage.pixels, strippedPixels)
        let converted = try ImageCoders.default.decode(kept.data, options: .default).pixels
        let agreement = Self.meanDifference(converted, strippedPixels)
        #expect(shift > 4 && agreement < shift / 3, "shift \(shift), after conversion \(agreement)")
    }

    /// imgproxy 4 imports no RGB profile (`colorspaceToProcessing`): the steps run on the Display P3 numbers, so a
    /// `background` (here the padding's) is numbers in P3. Kept (`scp:0`), the padding has those numbers and the
    /// result the P3 profile; stripped, the whole result, padding included, is converted to sRGB at the end
    /// (`colorspaceToResult`), so the padding is P3's #336699 as sRGB shows it.
    @Test func aBackgroundIsNumbersInTheSourcesColourSpace() throws {
        let source = try Fixtures.data("formats/images/jpeg_p3.jpg")
        let profile = try #require(try ImageCoders.default.decode(source, options: keeping).colorProfile)
        let background = RGBA(red: 0x33, green: 0x66, blue: 0x99)
        var options = options(strip: false)
        options.padding = Padding(top: 4, right: 4, bottom: 4, left: 4)
        options.background = background
        let kept = try ImageCoders.default.decode(
            try processor.process(source, options: options, format: .png).data, options: keeping)
        #expect(kept.colorProfile == profile)
        #expect(kept.pixels[1, 1] == background)
        options.stripColorProfile = true
        let stripped = try ImageCoders.default.decode(
            try processor.process(source, options: options, format: .png).data, options: keeping)
        #expect(stripped.colorProfile == nil)
        let swatch = ImageFrame(pixels: PixelBuffer(width: 1, height: 1, filledWith: background))
        let inP3 = Image(frames: [swatch], colorProfile: profile)
        let expected = inP3.convertedToSRGB().pixels[0, 0]
        #expect(expected != background)
        #expect(stripped.pixels[1, 1] == expected)
    }

    @Test func aGIFHasNoRoomForAProfileSoItsColoursAreConverted() throws {
        let source = try Fixtures.data("formats/images/jpeg_p3.jpg")
        let stripped = try processor.process(source, options: options(strip: true), format: .gif)
        let kept = try processor.process(source, options: options(strip: false), format: .gif)
        #expect(try ImageCoders.default.decode(kept.data, options: keeping).colorProfile == nil)
        #expect(kept.data == stripped.data)
    }

    @Test func aGreyProfileIsNotCarriedOnRGBResults() throws {
        // A greyscale JPEG decodes to RGBA; its sGray profile would mislabel those pixels, so it is dropped.
        let source = try Fixtures.data("formats/images/jpeg_gray_profile.jpg")
        #expect(try ImageCoders.default.decode(source, options: keeping).colorProfile == nil)
        let kept = try processor.process(source, options: options(strip: false), format: .jpeg)
        #expect(try ImageCoders.default.decode(kept.data, options: keeping).colorProfile == nil)
    }

    @Test func keepingTheProfileIsPartOfTheResultsIdentity() {
        #expect(options(strip: false).cacheIdentity != options(strip: true).cacheIdentity)
        #expect(!options(strip: true).cacheIdentity.contains("strip_color_profile"), "the default adds nothing to it")
    }

    /// The mean absolute difference of the colour channels.
    static func meanDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        var total = 0
        var count = 0
        for index in a.bytes.indices where index % 4 != 3 {
            total += abs(Int(a.bytes[index]) - Int(b.bytes[index]))
            count += 1
        }
        return Double(total) / Double(max(count, 1))
    }
}
