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
        let key = ResultKey(options: try OptionTableTests.sample(name), source: Self.source, format: nil)
        let plain = ResultKey(options: ProcessingOptions(), source: Self.source, format: nil)
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
        let key = ResultKey(options: options, source: Self.source, format: .png)
        #expect(key != ResultKey(options: options, source: Self.source + "?v=2", format: .png))
        #expect(key != ResultKey(options: options, source: Self.source, format: .webp))
        #expect(key != ResultKey(options: options, source: Self.source, format: nil))
        #expect(key == ResultKey(options: options, source: Self.source, format: .png))
        #expect(key.hashValue == ResultKey(options: options, source: Self.source, format: .png).hashValue)
    }
}
