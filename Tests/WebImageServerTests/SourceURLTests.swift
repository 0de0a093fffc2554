import Testing

@testable import WebImageServer

@Suite("Server: source URLs in the path")
struct SourceURLTests {
    let parser = ImageURLParser(signer: nil)

    @Test func plainURLWithExtensionAndEncodedQuery() throws {
        let request = try parser.parse("/x/w:10/plain/http://example.com/a%20b.jpg%3Fv%3D1@webp", now: 0)
        #expect(request.source == "http://example.com/a b.jpg?v=1")
        #expect(request.options.format == .webp)
    }

    @Test func base64URLSplitBySlashesWithExtension() throws {
        // "http://example.com/images/curiosity.jpg", as imgproxy's docs split it.
        let request = try parser.parse(
            "/x/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png", now: 0)
        #expect(request.source == "http://example.com/images/curiosity.jpg")
        #expect(request.options.format == .png)
        #expect(request.options.gravity.kind == .smart)
        #expect(request.options.resizingType == .fill)
    }

    @Test func aBase64SourceOfNoBytesIsRefused() {
        for path in ["/x/=", "/x/w:10/==", "/x/=.png", "/x/plain/@png"] {
            #expect(throws: ImageServerError.self, "\(path)") { try parser.parse(path, now: 0) }
        }
    }

    @Test func proxiesThatSquashDoubleSlashesOrEncodeColonsAreUndone() throws {
        let request = try parser.parse("/x/rs%3Afit%3A20/plain/http:/example.com/a.jpg", now: 0)
        #expect(request.source == "http://example.com/a.jpg")
        #expect(request.options.width == 20)
    }

    @Test(arguments: [
        "/x", "/", "", "/x/", "/x/w:10", "/x/w:10/plain/", "/x/plain/a@png@jpg", "/x/a.b.c", "/x/!!!!",
        "/x/w:10/plain/http://e.com/a.jpg@bogus", "/x/fit/10/10/plain/http://a/b", "/x/plain/%zz",
    ])
    func malformedPathsAre404(path: String) {
        do throws(ImageServerError) {
            _ = try parser.parse(path, now: 0)
            Issue.record("\(path) parsed")
        } catch {
            #expect(error.status == 404)
        }
    }

    @Test func sourcePolicyRefusesSchemesPrefixesAndLocalWithoutRoot() {
        let policy = SourcePolicy(allowedSources: ["https://ok.example/"], localRoot: nil)
        #expect((try? policy.url(for: "https://ok.example/a.jpg")) != nil)
        for source in ["https://evil.example/a.jpg", "ftp://ok.example/a.jpg", "local:///a.jpg", "file:///etc/passwd"] {
            #expect(throws: ImageServerError.self) { try policy.url(for: source) }
        }
        let open = SourcePolicy(allowedSources: [], localRoot: nil)
        for source in ["ftp://x/a.jpg", "file:///etc/passwd", "local:///a.jpg", "data:image/png;base64,AA", "http://"] {
            #expect(throws: ImageServerError.self) { try open.url(for: source) }
        }
    }

    @Test(arguments: [
        ("https://*.example.com/", "https://cdn.example.com/a.jpg", true),
        ("https://*.example.com/", "https://a.b.example.com/a.jpg", true),
        ("https://*.example.com/", "https://evil.com/.example.com/a.jpg", false),
        ("https://*.example.com/", "https://cdn.example.com.evil.com/a.jpg", false),
        ("http://127.0.0.1:*/img/", "http://127.0.0.1:8080/img/a.png", true),
        ("http://127.0.0.1:*/img/", "http://127.0.0.1:8080/other/img/a.png", false),
        ("s3://bucket-*/", "s3://bucket-eu/a.png", true),
        ("https://ok.example/", "https://ok.example/a.jpg", true),
        ("https://ok.example/", "https://ok.example.evil/a.jpg", false),
        ("https://*/*/", "https://host/dir/a.jpg", true),
        ("https://*/*/", "https://host/a.jpg", false),
        ("*", "anything", true),
        ("https://*-*.example/", "https://a-b-c.example/x.png", true),
        ("https://*a*a*a/", "https://" + String(repeating: "a", count: 4000) + "b/", false),
        ("https://*a*a*a/", "https://xaxaxa/y.png", true),
        ("https://*x/y*/", "https://ax/z/x/y/", false),
    ])
    func allowedSourcesArePrefixesWhereAStarMatchesAnythingButASlash(
        pattern: String, source: String, allowed: Bool
    ) {
        #expect(SourcePattern(pattern).matches(source) == allowed, "\(pattern) \(source)")
        let policy = SourcePolicy(allowedSources: ["https://other.example/", pattern], localRoot: nil)
        let refused = (try? policy.url(for: source)) == nil
        if allowed, source.hasPrefix("http") { #expect(!refused, "\(pattern) \(source)") }
        if !allowed { #expect(refused, "\(pattern) \(source)") }
    }
}
