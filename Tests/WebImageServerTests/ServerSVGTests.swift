import Foundation
import Testing
import WebImage
import WebImageTesting

@testable import WebImageServer

/// SVG sources through the server, as imgproxy answers them: SVG without a format in the URL (sanitised, never
/// resized, whatever `Accept` says), rendered when the URL names a format or with `--always-rasterize-svg`.
@Suite("Server: SVG sources")
struct ServerSVGTests {
    /// A 40x30 document with a script, an event attribute and a `javascript:` link.
    static var hostile: Data {
        Data(
            """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 30" onload="alert(1)">\
            <script>alert(2)</script><a href="javascript:alert(3)"><rect width="40" height="30" fill="#00ff00"/></a></svg>
            """.utf8)
    }

    private static func register(_ harness: ServerHarness, _ data: Data = hostile, at path: String = "/logo.svg") {
        harness.origin.register(data, at: path, contentType: "image/svg+xml")
    }

    @Test(arguments: ["", "rs:fit:300:300", "w:10/h:10/q:50", "rs:fill:5:5/bl:3"])
    func withoutAFormatTheAnswerIsTheSanitisedSVG(options: String) async throws {
        try await ServerHarness.run { harness in
            Self.register(harness)
            for accept in ["", "image/avif,image/webp,*/*"] {
                let response = try await harness.get(harness.url(options, "/logo.svg"), headers: [.accept: accept])
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/svg+xml")
                #expect(response.headers[.contentDisposition] == #"inline; filename="logo.svg""#)
                let body = String(decoding: Data(response.body.readableBytesView), as: UTF8.self)
                #expect(body.hasPrefix(#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 30">"#))
                #expect(!body.contains("alert"), "\(body)")
                #expect(body.contains(##"<rect width="40" height="30" fill="#00ff00"/>"##))
            }
        }
    }

    @Test func theURLsSVGFormatAnswersSVGToo() async throws {
        try await ServerHarness.run { harness in
            Self.register(harness)
            for url in [harness.url("w:10", "/logo.svg", ext: "svg"), harness.url("f:svg/w:10", "/logo.svg")] {
                let response = try await harness.get(url)
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/svg+xml")
                #expect(!String(decoding: Data(response.body.readableBytesView), as: UTF8.self).contains("alert"))
            }
        }
    }

    @Test func sanitisingCanBeTurnedOff() async throws {
        try await ServerHarness.run(configure: { $0.sanitizesSVG = false }) { harness in
            Self.register(harness)
            let response = try await harness.get(harness.url("", "/logo.svg"))
            #expect(response.status == .ok)
            #expect(Data(response.body.readableBytesView) == Self.hostile)
        }
    }

    /// A format in the URL renders the vector at the size asked for, enlarged without `el` (imgproxy enlarges
    /// vectors), sharp: the render is that size, not a scaled-up 40x30.
    @Test(arguments: [("png", ImageFormat.png), ("webp", .webp), ("jpg", .jpeg)])
    func aFormatInTheURLRendersAtTheRequestedSize(ext: String, format: ImageFormat) async throws {
        try await ServerHarness.run { harness in
            Self.register(harness)
            let response = try await harness.get(harness.url("rs:fit:400:400", "/logo.svg", ext: ext))
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == format.mimeType)
            let image = try ServerHarness.image(response)
            #expect(image.size == PixelSize(width: 400, height: 300))
            let pixel = image.pixels[200, 150]
            #expect(pixel.green > 240 && pixel.red < 16 && pixel.blue < 16)
        }
    }

    @Test func theFormatOptionRendersToo() async throws {
        try await ServerHarness.run { harness in
            Self.register(harness)
            let response = try await harness.get(harness.url("f:webp/w:20", "/logo.svg"))
            #expect(response.headers[.contentType] == "image/webp")
            #expect(try ServerHarness.image(response).size == PixelSize(width: 20, height: 15))
        }
    }

    /// With `--always-rasterize-svg`, a URL without a format renders to the negotiated format, else the first
    /// preferred one with alpha.
    @Test func alwaysRasterizingNegotiatesTheFormat() async throws {
        try await ServerHarness.run(configure: {
            $0.alwaysRasterizesSVG = true
            $0.autoWebP = true
        }) { harness in
            Self.register(harness)
            let webp = try await harness.get(harness.url("w:80", "/logo.svg"), headers: [.accept: "image/webp"])
            #expect(webp.headers[.contentType] == "image/webp")
            #expect(try ServerHarness.image(webp).size == PixelSize(width: 80, height: 60))
            let plain = try await harness.get(harness.url("w:80", "/logo.svg"))
            #expect(plain.headers[.contentType] == "image/png")
        }
    }

    /// A rendered SVG reaches nothing its markup names: the origin sees only the request for the SVG itself.
    @Test func aRenderMakesNoRequestOfItsOwn() async throws {
        try await ServerHarness.run { harness in
            let reference = harness.source("/tracker.png")
            let svg = Data(
                """
                <svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><image href="\(reference)" \
                width="20" height="20"/><use href="\(reference)#a"/></svg>
                """.utf8)
            Self.register(harness, svg, at: "/refs.svg")
            let response = try await harness.get(harness.url("w:20", "/refs.svg", ext: "png"))
            #expect(response.status == .ok)
            #expect(harness.origin.stats.log == ["/refs.svg"])
        }
    }

    @Test func brokenAndNonSVGSourcesAreRefused() async throws {
        try await ServerHarness.run { harness in
            Self.register(harness, Data("<svg><g></svg>".utf8), at: "/broken.svg")
            let broken = try await harness.get(harness.url("", "/broken.svg"))
            #expect(broken.status.code == 422)
            // SVG is not written from a raster source, as in imgproxy.
            let fromRaster = try await harness.get(harness.url("w:10", "/geometry.png", ext: "svg"))
            #expect(fromRaster.status.code == 422)
        }
    }

    /// A vector larger than the resolution limit is rendered smaller rather than refused (imgproxy's
    /// `vectorGuardScale`); answered as SVG it is not checked at all.
    @Test func aHugeVectorIsScaledToTheResolutionLimit() async throws {
        try await ServerHarness.run(configure: { $0.limits.maxSourceResolution = 10_000 }) { harness in
            let svg = Data(
                #"<svg xmlns="http://www.w3.org/2000/svg" width="40000" height="20000"><rect width="40000" height="20000" fill="red"/></svg>"#
                    .utf8)
            Self.register(harness, svg, at: "/huge.svg")
            #expect(try await harness.get(harness.url("", "/huge.svg")).status == .ok)
            let response = try await harness.get(harness.url("", "/huge.svg", ext: "png"))
            #expect(response.status == .ok)
            let image = try ServerHarness.image(response)
            #expect(image.width * image.height <= 10_000 && abs(image.width - 2 * image.height) <= 1)
        }
    }
}
