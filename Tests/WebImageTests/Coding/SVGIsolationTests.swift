import Foundation
import Testing
import WebImageTesting

@testable import WebImage

/// An SVG is rendered from its bytes alone: no file, no network, no external entity, no entity bomb.
@Suite struct SVGIsolationTests {
    private static func svg(_ body: String, doctype: String = "") -> Data {
        Data(
            """
            <?xml version="1.0"?>\(doctype)
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" \
            xmlns:xi="http://www.w3.org/2001/XInclude" width="20" height="20">\(body)</svg>
            """.utf8)
    }

    /// A red PNG in a temporary directory, referenced by absolute `file:` URL, by path and by relative name: none is
    /// drawn, so none was read.
    @Test func noFileIsRead() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let red = try PNGCoder().encode(
            Image(pixels: PixelBuffer(width: 20, height: 20, filledWith: RGBA(red: 255, green: 0, blue: 0))),
            as: .png, options: .default)
        let file = directory.appendingPathComponent("red.png")
        try red.write(to: file)
        for reference in [file.absoluteString, file.path, "red.png", "file:///etc/passwd"] {
            let data = Self.svg(
                """
                <image href="\(reference)" width="20" height="20"/>\
                <image xlink:href="\(reference)" width="20" height="20"/>\
                <use href="\(reference)#a"/><rect width="20" height="20" fill="url(\(reference)#g)"/>
                """)
            let image = try SVGCoder().decode(data, options: .default)
            #expect(image.pixels[10, 10].alpha == 0, "\(reference) was drawn")
        }
        // The same PNG as a data: URL, part of the bytes, is drawn.
        let inline = Self.svg(
            #"<image href="data:image/png;base64,\#(red.base64EncodedString())" width="20" height="20"/>"#)
        #expect(try SVGCoder().decode(inline, options: .default).pixels[10, 10] == RGBA(red: 255, green: 0, blue: 0))
    }

    /// Every kind of reference to a local HTTP server: the server sees no request.
    @Test func noRequestIsMade() async throws {
        let server = TestImageServer()
        try await server.start()
        let base = server.baseURL.absoluteString
        let documents = [
            Self.svg(#"<image href="\#(base)/image.png" width="20" height="20"/>"#),
            Self.svg(#"<image xlink:href="\#(base)/xlink.png" width="20" height="20"/>"#),
            Self.svg(#"<use href="\#(base)/use.svg#a"/>"#),
            Self.svg(#"<rect width="20" height="20" fill="url(\#(base)/fill.svg#g)"/>"#),
            Self.svg(#"<style>@import url("\#(base)/import.css");</style><rect width="5" height="5"/>"#),
            Self.svg(#"<style>rect { fill: url(\#(base)/css.svg#g) }</style><rect width="5" height="5"/>"#),
            Self.svg(#"<xi:include href="\#(base)/xinclude.svg"/>"#),
            Self.svg(#"<rect width="5" height="5"/>"#, doctype: #"<!DOCTYPE svg SYSTEM "\#(base)/external.dtd">"#),
            Self.svg(
                #"<filter id="f"><feImage href="\#(base)/feimage.png"/></filter><rect width="5" height="5" filter="url(#f)"/>"#
            ),
        ]
        for data in documents {
            _ = try? SVGCoder().decode(data, options: .default)
            _ = try? SVGCoder().info(of: data)
        }
        #expect(server.stats.total == 0)
        try await server.shutdown()
    }

    /// An external entity (XXE) is refused before parsing, whatever it names.
    @Test func externalEntitiesAreRefused() async throws {
        let server = TestImageServer()
        try await server.start()
        for system in ["file:///etc/passwd", "\(server.baseURL.absoluteString)/xxe.txt", "/etc/hostname"] {
            let data = Self.svg(
                "<text>&xxe;</text>", doctype: #"<!DOCTYPE svg [<!ENTITY xxe SYSTEM "\#(system)">]>"#)
            #expect(errorCode { try SVGCoder().decode(data, options: .default) } == .corruptData)
            #expect(errorCode { try SVGCoder().info(of: data) } == .corruptData)
        }
        let parameter = Self.svg("", doctype: #"<!DOCTYPE svg [<!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]>"#)
        #expect(errorCode { try SVGCoder().decode(parameter, options: .default) } == .corruptData)
        #expect(server.stats.total == 0)
        try await server.shutdown()
    }

    /// A billion laughs: ten entities of ten references each, a few hundred bytes declaring gigabytes.
    @Test func anEntityBombIsRefused() throws {
        var declarations = #"<!ENTITY lol0 "lol">"#
        for level in 1...9 {
            let references = String(repeating: "&lol\(level - 1);", count: 10)
            declarations += #"<!ENTITY lol\#(level) "\#(references)">"#
        }
        let bomb = Self.svg("<text>&lol9;</text>", doctype: "<!DOCTYPE svg [\(declarations)]>")
        #expect(errorCode { try SVGCoder().decode(bomb, options: .default) } == .tooLarge)
        // Elements multiplied through entities count too.
        let rects = String(repeating: #"<rect width="1" height="1"/>"#, count: 100)
        var elements = #"<!ENTITY r0 '\#(rects)'>"#
        for level in 1...3 { elements += "<!ENTITY r\(level) '\(String(repeating: "&r\(level - 1);", count: 10))'>" }
        let swarm = Self.svg("&r3;", doctype: "<!DOCTYPE svg [\(elements)]>")
        #expect(errorCode { try SVGCoder().info(of: swarm) } == .tooLarge)
        // A few internal entities, as illustration programs write, are fine.
        let named = Self.svg(
            #"<rect width="20" height="20" fill="&colour;"/>"#,
            doctype: ##"<!DOCTYPE svg [<!ENTITY colour "#00ff00">]>"##)
        #expect(try SVGCoder().decode(named, options: .default).pixels[5, 5] == RGBA(red: 0, green: 255, blue: 0))
    }

    /// Scripts are not run: the document renders as if they were not there.
    @Test func scriptsAreIgnored() throws {
        let data = Self.svg(
            """
            <script>document.querySelector('rect').setAttribute('fill', 'red')</script>\
            <rect width="20" height="20" fill="blue" onload="this.setAttribute('fill', 'red')"/>
            """)
        #expect(try SVGCoder().decode(data, options: .default).pixels[5, 5] == RGBA(red: 0, green: 0, blue: 255))
    }
}
