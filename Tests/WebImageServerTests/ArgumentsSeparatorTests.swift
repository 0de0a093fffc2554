import Foundation
import Testing

@testable import WebImageServer

/// imgproxy's `IMGPROXY_ARGUMENTS_SEPARATOR`: URLs, presets, only-presets names and `/info` URLs split with it, and
/// the canonical URL written with it reads back.
@Suite("Arguments separator")
struct ArgumentsSeparatorTests {
    @Test func urlsAndPresetsSplitWithTheSeparator() throws {
        let presets = try Presets(definitions: ["thumb=rs~fit~50~40/q~70"], argumentsSeparator: "~")
        let parser = ImageURLParser(signer: nil, presets: presets, argumentsSeparator: "~")
        let parsed = try parser.parse("/x/rs~fill~300~200/pr~thumb/w~120/plain/http://a.example/b.jpg", now: 0)
        #expect(parsed.options.width == 120)
        #expect(parsed.options.height == 40)
        #expect(parsed.options.quality == 70)
        #expect(parsed.source == "http://a.example/b.jpg")
        // `:` is no separator then: a segment with it alone starts the source (which does not decode).
        #expect(throws: ImageServerError.self) { try parser.parse("/x/w:10/plain/http://a.example/b.jpg", now: 0) }
        #expect(throws: ImageServerError.self) { try parser.parse("/x/cb~a:b/plain/http://a.example/b.jpg", now: 0) }
        #expect(throws: ImageServerError.self) { try Presets(definitions: ["p=rs:fit:5:5"], argumentsSeparator: "~") }
    }

    @Test func onlyPresetsAndInfoURLsSplitWithTheSeparator() throws {
        var rules = OptionRules()
        rules.onlyPresets = true
        let presets = try Presets(definitions: ["a=w~10", "b=h~20"], argumentsSeparator: "~")
        let parser = ImageURLParser(signer: nil, presets: presets, rules: rules, argumentsSeparator: "~")
        let parsed = try parser.parse("/x/a~b/plain/http://a.example/b.jpg", now: 0)
        #expect(parsed.options.width == 10 && parsed.options.height == 20)
        let info = InfoURLParser(signer: nil, configuration: InfoConfiguration(), argumentsSeparator: "~")
        let request = try info.parse("/x/bh~4~3/plain/http://a.example/b.jpg", now: 0)
        #expect(request.source == "http://a.example/b.jpg")
    }

    /// Random option paths written with `~` read back through their canonical URL written with `~`.
    @Test(arguments: 0..<200)
    func theCanonicalURLReadsBackWithTheSeparator(seed: Int) throws {
        var generator = SplitMix(seed: UInt64(seed))
        let pieces = [
            "rs~fill~300~200", "w~120", "h~80", "q~55", "g~sm", "c~100~50~ce", "bl~2", "sh~0.5", "pd~1~2~3~4",
            "ex~1~ce", "bg~ff0000", "rot~90", "f~webp", "dpr~2", "cb~v2", "fn~cat", "ar~0", "sm~1", "t~10",
        ]
        let count = Int(generator.next() % 6)
        let path = (0..<count).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined(separator: "/")
        let parser = ImageURLParser(signer: nil, argumentsSeparator: "~")
        guard let parsed = try? parser.parse("/x/" + path + "/plain/http://a.example/b.jpg", now: 0) else { return }
        let canonical = parsed.options.canonicalPath(source: parsed.source, argumentsSeparator: "~")
        #expect(!canonical.contains(":"), "\(canonical)")
        let again = try parser.parse("/x" + canonical, now: 0)
        #expect(again.options.cacheIdentity == parsed.options.cacheIdentity, "\(path) → \(canonical)")
        let builder = ImageURLBuilder(signer: nil, argumentsSeparator: "~")
        #expect(builder.url(parsed.options, source: parsed.source) == "/insecure" + canonical)
    }
}
