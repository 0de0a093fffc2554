import Foundation
import Testing

@testable import WebImageServer

/// `webimage url`'s canonical spelling: one URL per result, read back by the server as the same options.
struct CanonicalURLTests {
    @Test(arguments: ResizingType.allCases)
    func aSourceWhoseBase64SpellsAResizingTypeReadsBack(type: ResizingType) throws {
        // Base64 of 3n bytes has no padding: find the bytes that encode to the type's name, if it has 4n letters.
        guard type.rawValue.count % 4 == 0, let bytes = OptionArguments.base64URL(type.rawValue) else { return }
        let source = String(decoding: bytes, as: UTF8.self)
        guard Array(source.utf8) == Array(bytes) else { return }
        let parser = ImageURLParser(signer: nil)
        let canonical = ProcessingOptions().canonicalPath(source: source)
        #expect(canonical != "/" + type.rawValue)
        #expect(try parser.parse("/x" + canonical, now: 0).source == source)
    }

    @Test func aKnownURLIsSpelledWithLongNamesInTableOrder() throws {
        let builder = ImageURLBuilder(signer: nil, base: "http://img.test/")
        let url = try builder.url(
            options: "q:80/rs:fill:300:200:1/g:no:10:5/f:webp", source: "https://example.com/a b.jpg")
        #expect(
            url == "http://img.test/insecure/resizing_type:fill/width:300/height:200/enlarge:1/gravity:no:10:5/"
                + "quality:80/aHR0cHM6Ly9leGFtcGxlLmNvbS9hIGIuanBn.webp")
        // Different spellings of one result give one URL.
        #expect(
            try builder.url(
                options: "resize:fill:300:200:t/gravity:no:10:5/quality:80/format:webp",
                source: "https://example.com/a b.jpg") == url)
        #expect(try builder.url(options: "", source: "s") == "http://img.test/insecure/cw")
    }

    @Test func theSignatureIsTheServersOwn() throws {
        // imgproxy's documented signing example: key "secret", salt "hello".
        let signer = try #require(URLSigner(hexKey: "736563726574", hexSalt: "68656c6c6f"))
        let url = ImageURLBuilder(signer: signer).url(ProcessingOptions(), source: "http://example.com/x.png")
        let parser = ImageURLParser(signer: signer)
        let request = try parser.parse(url, now: 0)
        #expect(request.source == "http://example.com/x.png")
        #expect(throws: ImageServerError.self) {
            try parser.parse(url.replacingOccurrences(of: "L3gucG5n", with: "L3kucG5n"), now: 0)
        }
    }

    @Test func badOptionsAreNamed() {
        let builder = ImageURLBuilder(signer: nil)
        #expect(throws: ImageServerError(status: 404, "unknown processing option zz_option")) {
            try builder.url(options: "zz_option:jpg", source: "s")
        }
        #expect(throws: ImageServerError.self) { try builder.url(options: "w:10/oops", source: "s") }
    }

    @Test func randomOptionsRoundTripThroughTheCanonicalURL() {
        var generator = SplitMix(seed: 0xCA11)
        let names = [
            "rs", "s", "rt", "w", "h", "dpr", "el", "ex", "g", "c", "rot", "bg", "bl", "sh", "q", "fq", "f", "sm", "ar",
            "scp", "cb", "fn", "att", "exar", "pd", "fl", "mw", "mh", "z", "t", "pix", "wm", "ph",
        ]
        let args = [
            "", "0", "1", "0.5", "2", "1.25", "90", "270", "fill", "fit", "fill-down", "force", "auto", "sm", "fp",
            "ce", "noea", "so", "re", "webp", "png", "jpg", "avif", "ff8000", "t", "abc", "-3", "0.75",
        ]
        let parser = ImageURLParser(signer: nil)
        var checked = 0
        for _ in 0..<20_000 {
            var segments: [String] = []
            for _ in 0..<(1 + Int(generator.next() % 5)) {
                var segment = names[Int(generator.next() % UInt64(names.count))]
                for _ in 0..<(1 + Int(generator.next() % 4)) {
                    segment += ":" + args[Int(generator.next() % UInt64(args.count))]
                }
                segments.append(segment)
            }
            let source = ["http://e.example/a.jpg", "https://e.example/ü ?x=1&y=%20", "s3://bucket/k"][
                Int(generator.next() % 3)]
            guard let first = try? parser.parse("/x/" + segments.joined(separator: "/") + "/plain/" + source, now: 0)
            else { continue }
            let canonical = first.options.canonicalPath(source: first.source)
            guard let second = try? parser.parse("/insecure" + canonical, now: 0) else {
                Issue.record("the server refuses its canonical URL \(canonical) of \(segments)")
                continue
            }
            #expect(second.source == first.source)
            var expected = first.options
            expected.usedPresets = []
            #expect(second.options == expected, "\(segments) → \(canonical)")
            #expect(second.options.canonicalPath(source: second.source) == canonical)
            checked += 1
        }
        #expect(checked > 400, "the generator reaches valid option lists")
    }
}
