import Foundation
import Testing
import WebImageStores

@testable import WebImageServer

/// imgproxy's `IMGPROXY_BASE_URL`, `IMGPROXY_URL_REPLACEMENTS`, `IMGPROXY_BASE64_URL_INCLUDES_FILENAME` and
/// `IMGPROXY_SOURCE_URL_QUERY_SEPARATOR`, as its URL parser and transports apply them.
@Suite("Source URL rules")
struct SourceURLRulesTests {
    private func rules(base: String = "", replacements: String? = nil, filename: Bool = false) -> SourceURLRules {
        var rules = SourceURLRules()
        rules.baseURL = base
        rules.replacements = replacements.flatMap(SourceURLRules.replacements(parsing:)) ?? []
        rules.base64IncludesFilename = filename
        return rules
    }

    private func source(_ path: String, _ rules: SourceURLRules) throws -> String {
        try ImageURLParser(signer: nil, sourceURLs: rules).parse("/insecure/rs:fit:10:10/" + path, now: 0).source
    }

    @Test func theBaseURLGoesInFrontUnlessTheSourceStartsWithIt() throws {
        let base = rules(base: "https://images.example/media/")
        #expect(try source("plain/cats/1.jpg", base) == "https://images.example/media/cats/1.jpg")
        #expect(try source("plain/https://images.example/media/x.jpg", base) == "https://images.example/media/x.jpg")
        #expect(
            try source("plain/https%3A%2F%2Fother.example%2Fx.jpg", base)
                == "https://images.example/media/https://other.example/x.jpg")
        let encoded = Data("cats/2.jpg".utf8).base64EncodedString()
        #expect(try source(encoded + ".png", base) == "https://images.example/media/cats/2.jpg")
    }

    @Test func replacementsRewriteThePrefixWithWhatTheStarsMatched() throws {
        let rewrite = rules(replacements: "mys3://*/=https://$1.s3.example/;https://old.example/=https://new.example/")
        #expect(try source("plain/mys3://bucket/a/b.jpg", rewrite) == "https://bucket.s3.example/a/b.jpg")
        #expect(try source("plain/https://old.example/x.jpg", rewrite) == "https://new.example/x.jpg")
        #expect(try source("plain/http://mys3://x/", rewrite) == "http://mys3://x/")
        let then = rules(base: "https://base.example/", replacements: "img:*=${1}.jpg")
        #expect(try source("plain/img:cat", then) == "https://base.example/cat.jpg")
    }

    @Test func goTemplateExpansion() {
        func replace(_ pattern: String, _ replacement: String, _ text: String) -> String {
            SourceURLRules.Replacement(pattern: pattern, replacement: replacement).apply(to: text)
        }
        #expect(replace("a*b*c", "[$1|$2|$0]", "axxbyycz") == "[xx|yy|axxbyyc]z")
        #expect(replace("a*b", "$1x-${1}x-$$-$9-$-${}", "aQQb/") == "-QQx-$--$-${}/")
        #expect(replace("a*b", "X", "aQ/b") == "aQ/b")
        #expect(replace("*.", "<$1>", "a.b.c") == "<a.b>c")
        #expect(replace("", "p/", "x") == "p/x")
    }

    @Test func aPairWithoutEqualsIsRefused() {
        #expect(SourceURLRules.replacements(parsing: "a=b;c") == nil)
        #expect(SourceURLRules.replacements(parsing: "a=b=c")?.first?.replacement == "b=c")
    }

    @Test func aBase64SourceMayEndWithAFileName() throws {
        let encoded = Data("https://images.example/cat.jpg".utf8).base64EncodedString()
            .replacingOccurrences(of: "=", with: "")
        let half = encoded.index(encoded.startIndex, offsetBy: 10)
        let split = String(encoded[..<half]) + "/" + String(encoded[half...])
        let named = rules(filename: true)
        #expect(try source(split + ".png/cat.png", named) == "https://images.example/cat.jpg")
        #expect(try source(encoded + ".png", named) == "https://images.example/cat.jpg")
        #expect((try? source(split + "/cat.png", rules())) != "https://images.example/cat.jpg")
    }

    @Test func theQuerySeparatorCutsLocalPathsAndS3Keys() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("wis-q-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        func local(_ source: String, _ separator: String) throws -> String {
            try SourcePolicy(allowedSources: [], localRoot: root, querySeparator: separator).url(for: source)
                .lastPathComponent
        }
        #expect(try local("local:///a.png?v=1", "?") == "a.png")
        #expect(try local("local:///a#b.png?v=1", "?") == "a#b.png")
        #expect(try local("local:///a.png?v=1", "") == "a.png?v=1")
        #expect(try local("local:///a.png|v=1?x", "|") == "a.png")
        let s3 = SourcePolicy(allowedSources: [], localRoot: nil, querySeparator: "", s3Buckets: S3BucketPolicy())
        #expect(try s3.url(for: "s3://bucket/a?b#c.png").path == "/a?b#c.png")
        let cut = SourcePolicy(allowedSources: [], localRoot: nil, s3Buckets: S3BucketPolicy())
        #expect(try cut.url(for: "s3://bucket/a.png?versionId=3").path == "/a.png")
    }

    /// Whatever the source, the rules give a source that starts with the base URL, and applying them again to
    /// their result changes nothing when no replacement can match it (the canonical URL reads back).
    @Test(arguments: 0..<300)
    func rewrittenSourcesStartWithTheBaseAndAreStable(seed: Int) {
        var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 | 1
        func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        let alphabet = Array("ab/:.*$m3ys")
        let text = String((0..<Int(next() % 24)).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] })
        let rewrite = rules(base: "http://base.example/", replacements: "mys3://*/=https://$1.s3.example/")
        let once = rewrite.apply(to: text)
        #expect(once.hasPrefix("http://base.example/"))
        #expect(rewrite.apply(to: once) == once)
    }
}
