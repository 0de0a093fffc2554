import Foundation
import Testing
import WebImage
import WebImageTesting

/// Every image of the conformance corpus meets its manifest expectation: decodes within tolerance of the reference,
/// or is refused with a typed error, never a crash. The corpus's references come from tools that ignore PNG `gAMA`
/// (netpbm, as libpng), so PNG gamma is off here, as in `make conformance`; it is on by default (browsers' pictures)
/// and tested on its own (AnimatedColorTests, CLIFormatsTests).
@Suite struct CorpusConformanceTests {
    @Test func manifestIsPresent() {
        #expect(CorpusEntry.all.count >= 181)
    }

    @Test(arguments: CorpusEntry.all)
    func entryMeetsExpectation(_ entry: CorpusEntry) throws {
        let data = try Data(contentsOf: entry.url)
        let result = Result { () throws(WebImageError) -> Image in
            try ImageCoders.default.decode(data, options: DecodingOptions(appliesPNGGamma: false))
        }
        switch entry.expect {
        case "reject":
            #expect(throws: WebImageError.self) { try result.get() }
        case "decode":
            let image = try result.get()
            if let width = entry.width, let height = entry.height {
                #expect(image.size == PixelSize(width: width, height: height))
            }
            if let frames = entry.frames {
                #expect(image.frames.count == frames)
            }
            if let reference = entry.reference {
                let expected = try ReferenceImage.expected(
                    for: entry.url, reference: Fixtures.corpus.appendingPathComponent(reference))
                try #require(expected.size == image.size)
                let difference = ReferenceImage.difference(image.pixels, expected)
                #expect(difference.mean <= entry.allowed.mean, "mean difference \(difference.mean)")
                #expect(difference.max <= entry.allowed.max, "max difference \(difference.max)")
            }
        default:
            _ = try? result.get()
        }
    }
}
