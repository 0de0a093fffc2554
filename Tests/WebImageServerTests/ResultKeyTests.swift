import Foundation
import Testing
import WebImage

@testable import WebImageServer

/// ``ResultKey``: the typed identity of a result, derived from the option table, its source and its format.
@Suite("Server: result keys")
struct ResultKeyTests {
    static let source = OptionTableTests.source

    @Test(arguments: OptionTable.entries.map(\.name))
    func everyOptionThatChangesTheResultChangesTheKey(name: String) throws {
        let entry = try #require(OptionTable.byName[name])
        let key = ResultKey(
            options: try OptionTableTests.sample(name), source: Self.source, format: FormatRequest(nil))
        let plain = ResultKey(options: ProcessingOptions(), source: Self.source, format: FormatRequest(nil))
        #expect((key != plain) == entry.changesResult, "\(name)")
        #expect((key.hex != plain.hex) == entry.changesResult, "the disk tier's name follows the key")
    }

    /// An option the table says does not change the result must make the very same bytes: otherwise two different
    /// results would share one cache entry.
    @Test(arguments: OptionTable.entries.filter { !$0.changesResult }.map(\.name))
    func anOptionThatLeavesTheKeyAloneLeavesTheBytesAlone(name: String) throws {
        let processor = ImageProcessor(coders: ImageCoders.default, limits: ServerLimits())
        let png = try ImageCoders.default.encode(Image(pixels: TestImages.geometry), as: .png, options: .default)
        let plain = try processor.process(png, options: ProcessingOptions(), format: .png)
        let sampled = try processor.process(png, options: try OptionTableTests.sample(name), format: .png)
        #expect(sampled.data == plain.data, "\(name)")
    }

    @Test func theSourceAndTheFormatAreInTheKey() {
        let options = ProcessingOptions()
        let key = ResultKey(options: options, source: Self.source, format: FormatRequest(.png))
        #expect(key != ResultKey(options: options, source: Self.source + "?v=2", format: FormatRequest(.png)))
        #expect(key != ResultKey(options: options, source: Self.source, format: FormatRequest(.webp)))
        #expect(key != ResultKey(options: options, source: Self.source, format: FormatRequest(nil)))
        #expect(key == ResultKey(options: options, source: Self.source, format: FormatRequest(.png)))
        let same = ResultKey(options: options, source: Self.source, format: FormatRequest(.png))
        #expect(key.hashValue == same.hashValue)
    }

    /// The key holds the format for a still and for an animated source when they differ (JPEG XL and AVIF are not
    /// chosen for animations), and the one format, as before, when they agree.
    @Test func theKeyHoldsTheFormatOfAStillAndOfAnAnimation() {
        var configuration = ImageServerConfiguration()
        configuration.autoJXL = true
        configuration.autoWebP = true
        func request(_ accept: String, _ options: ProcessingOptions = ProcessingOptions()) -> FormatRequest {
            FormatRequest(options: options, negotiation: Negotiation(accept: accept), configuration: configuration)
        }
        let both = request("image/jxl,image/webp")
        #expect(both.still == .jxl && both.animated == .webp && both.identity == "jxl/webp")
        #expect(request("image/jxl").identity == "jxl/auto" && request("image/webp").identity == "webp")
        #expect(request("*/*").identity == FormatRequest(nil).identity)
        var named = ProcessingOptions()
        named.format = .png
        #expect(request("image/jxl", named).identity == "png")
        configuration.enforcesJXL = true
        #expect(request("image/jxl", named).identity == "jxl/png")
        let keys = [both, request("image/webp"), FormatRequest(.jxl)].map {
            ResultKey(options: ProcessingOptions(), source: Self.source, format: $0)
        }
        #expect(Set(keys).count == 3)
    }
}
