import Foundation
import Testing
import WebImage
import WebImageTesting

@testable import WebImageServer

/// The SVG sanitiser: imgproxy's own test file, each rule, entity expansion, and broken documents refused.
@Suite struct SVGSanitizerTests {
    private func sanitized(_ text: String) throws -> String {
        String(decoding: try SVGSanitizer().sanitize(Data(text.utf8)), as: UTF8.self)
    }

    private func refused(_ text: String) -> Bool {
        do {
            _ = try SVGSanitizer().sanitize(Data(text.utf8))
            return false
        } catch {
            return error.status == 422
        }
    }

    /// Whitespace between tags dropped and empty elements written short, as imgproxy's writer does.
    private static func normalized(_ text: String) -> String {
        var result = text.replacingOccurrences(of: #">\s+<"#, with: "><", options: .regularExpression)
        result = result.replacingOccurrences(
            of: #"<([A-Za-z:]+)([^<>]*?)></\1>"#, with: "<$1$2/>", options: .regularExpression)
        return result.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func imgproxysTestFileSanitisesAsImgproxyDoes() throws {
        let source = try Fixtures.data("svg-sanitize/imgproxy-test1.svg")
        let expected = try Fixtures.data("svg-sanitize/imgproxy-test1.sanitized.svg")
        let ours = String(decoding: try SVGSanitizer().sanitize(source), as: UTF8.self)
        #expect(Self.normalized(ours) == Self.normalized(String(decoding: expected, as: UTF8.self)))
    }

    @Test func scriptsFormsAndFramesAreRemovedWithTheirContent() throws {
        let out = try sanitized(
            """
            <svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><g><iframe src="x"><p>in</p></iframe>\
            <form><input/></form><embed src="x"/><object data="x"><param/></object><svg:script xmlns:svg="s"/>\
            <rect/></g><SCRIPT>alert(2)</SCRIPT></svg>
            """)
        #expect(out == #"<svg xmlns="http://www.w3.org/2000/svg"><g><rect/></g></svg>"#)
    }

    @Test func eventAttributesAreRemoved() throws {
        let out = try sanitized(
            #"<svg onload="a()" width="1"><rect onclick="b()" ONMOUSEOVER="c()" onfuturething='d()' x="1"/></svg>"#)
        #expect(out == #"<svg width="1"><rect x="1"/></svg>"#)
    }

    @Test(arguments: [
        ("use", "#frag", true), ("use", "", true), ("use", "other.svg#frag", false),
        ("use", "data:image/svg+xml,x", false),
        ("use", "https://example.com/a.svg#b", false), ("image", "data:image/png;base64,AAAA", true),
        ("image", "https://example.com/a.png", true), ("image", "javascript:alert(1)", false),
        ("a", "https://example.com/", true), ("a", "relative/path", true), ("a", "//example.com/x", true),
        ("a", "javascript:alert(1)", false), ("a", "JaVaScRiPt:alert(1)", false),
        ("a", " \njavascript:alert(1)", false),
        ("a", "java&#x09;script:alert(1)", false), ("a", "java&#10;script:x", false),
        ("a", "jav&#97;script:alert(1)", false), ("a", "data:text/html,x", false), ("a", "vbscript:x", false),
        ("a", "mailto:a@b", false), ("feImage", "ftp://example.com/x", false),
    ])
    func linksFollowImgproxysRules(element: String, href: String, kept: Bool) throws {
        let text = #"<svg xmlns:xlink="x"><\#(element) href="\#(href)" xlink:href="\#(href)" id="e"/></svg>"#
        let out = try sanitized(text)
        #expect(out.contains("href=") == kept, "\(out)")
        #expect(out.contains(#"id="e""#))
    }

    @Test func animationsCannotMakeAScriptLink() throws {
        let out = try sanitized(
            """
            <svg><a><set attributeName="href" to="javascript:alert(1)"/>\
            <animate attributeName="href" values="https://a/;javascript:alert(1)"/>\
            <animate attributeName="x" from="0" to="10" values="0;5;10"/></a></svg>
            """)
        #expect(!out.contains("javascript"))
        #expect(out.contains(#"<animate attributeName="x" from="0" to="10" values="0;5;10"/>"#))
    }

    @Test func theDoctypeIsDroppedAndItsTextEntitiesExpanded() throws {
        let out = try sanitized(
            """
            <?xml version="1.0"?><?xml-stylesheet href="x.css"?><!DOCTYPE svg [<!ENTITY c "#ff0000">\
            <!ENTITY q 'say "hi" &amp; go'><!ATTLIST svg onload CDATA "alert(1)">]><svg fill="&c;" title="&q;">&q;\
            <!-- kept --><![CDATA[<kept>]]></svg>
            """)
        #expect(
            out == """
                <?xml version="1.0"?><svg fill="#ff0000" title="say &quot;hi&quot; &amp; go">say "hi" &amp; go\
                <!-- kept --><![CDATA[<kept>]]></svg>
                """)
        // An entity hiding a link is expanded before the link is checked.
        let hidden = try sanitized(#"<!DOCTYPE svg [<!ENTITY j "javascript:alert(1)">]><svg><a href="&j;"/></svg>"#)
        #expect(hidden == "<svg><a/></svg>")
    }

    @Test(arguments: [
        #"<!DOCTYPE svg [<!ENTITY s "<script>alert(1)</script>">]><svg>&s;</svg>"#,
        #"<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg>&x;</svg>"#,
        "<svg>&undeclared;</svg>",
        "<svg><g></svg>",
        "<svg><g></h></svg>",
        "<svg>",
        "<svg><rect x=1/></svg>",
        #"<svg><rect x="<"/></svg>"#,
        #"<svg><rect x="1></svg>"#,
        "<svg><!-- open</svg>",
        "just text",
        "",
        "<svg>a & b</svg>",
    ])
    func brokenDocumentsAreRefused(text: String) {
        #expect(refused(text))
    }

    @Test func nestingIsBounded() throws {
        let depth = SVGSanitizer.maxDepth
        let fits =
            "<svg>" + String(repeating: "<g>", count: depth - 1) + String(repeating: "</g>", count: depth - 1)
            + "</svg>"
        #expect(try sanitized(fits) == fits)
        let deeper =
            "<svg>" + String(repeating: "<g>", count: depth) + String(repeating: "</g>", count: depth)
            + "</svg>"
        #expect(refused(deeper))
    }

    /// Text entities referenced many times expand no further than the output bound.
    @Test func expansionIsBounded() {
        let value = String(repeating: "x", count: 1000)
        let references = String(repeating: "&e;", count: 2000)
        #expect(refused(#"<!DOCTYPE svg [<!ENTITY e "\#(value)">]><svg>\#(references)</svg>"#))
    }

    /// Every input a fuzzer found, checked as the fuzz target checks it: refused, or sanitised into a document that
    /// sanitises to itself.
    @Test func fuzzRegressionsStayFixed() throws {
        let directory = Fixtures.directory.appendingPathComponent("fuzz-regressions/fuzz-svg-sanitize")
        let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
        #expect(!files.isEmpty)
        for file in files {
            guard let once = try? SVGSanitizer().sanitize(try Data(contentsOf: file)) else { continue }
            #expect(try SVGSanitizer().sanitize(once) == once, "\(file.lastPathComponent)")
        }
    }

    /// A document whose only elements are removed is refused, as its sanitised text would be.
    @Test func aDocumentOfRemovedElementsIsRefused() {
        #expect(refused("<script>alert(1)</script>"))
        #expect(refused(#"text<form action="x"/>more"#))
    }
}
