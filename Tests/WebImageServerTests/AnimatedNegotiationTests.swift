import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebImage
import WebImageTesting

@testable import WebImageServer

/// The format `Accept` chooses for an animated source, as imgproxy's `determineOutputFormat`: JPEG XL and AVIF are
/// skipped for animations (WebP when accepted, else the preferred format), still sources get them; the result key,
/// and so the cache and the ETag, hold the choice for a still and for an animated source.
@Suite("Server: format negotiation of animated sources")
struct AnimatedNegotiationTests {
    /// A real animated GIF of the corpus: 120×90, 8 frames.
    static let gif = try! Fixtures.data("corpus/images/gen_anim.gif")

    static func negotiating(_ configuration: inout ImageServerConfiguration, _ origin: TestImageServer) {
        configuration.autoJXL = true
        configuration.autoAVIF = true
        configuration.autoWebP = true
        origin.register(gif, at: "/anim.gif", contentType: "image/gif")
    }

    @Test(arguments: [
        // Accept, the animated GIF's result format (animated, every frame), the still PNG's.
        ("image/jxl,image/avif,image/webp,*/*", "image/webp", "image/jxl"),
        ("image/jxl,*/*", "image/gif", "image/jxl"), ("image/avif,*/*", "image/gif", "image/avif"),
        ("image/avif,image/webp", "image/webp", "image/avif"), ("image/webp", "image/webp", "image/webp"),
        ("*/*", "image/gif", "image/png"),
    ])
    func eachAcceptAnswersAnAnimationAsImgproxy(accept: String, animated: String, still: String) async throws {
        try await ServerHarness.run(configureWithOrigin: Self.negotiating) { harness in
            let headers: HTTPFields = [.accept: accept]
            let first = try await harness.get(harness.url("w:60", "/anim.gif"), headers: headers)
            #expect(first.status == .ok)
            #expect(first.headers[.contentType] == animated, "\(accept)")
            let image = try ServerHarness.image(first)
            #expect(image.frames.count == 8 && image.size == PixelSize(width: 60, height: 45))
            // From the cache: the same answer, the same ETag, a 304 for it.
            let again = try await harness.get(harness.url("w:60", "/anim.gif"), headers: headers)
            #expect(again.headers[.contentType] == animated && again.headers[.eTag] == first.headers[.eTag])
            #expect(Data(again.body.readableBytesView) == Data(first.body.readableBytesView))
            var conditional = headers
            conditional[.ifNoneMatch] = first.headers[.eTag] ?? ""
            let revalidated = try await harness.get(harness.url("w:60", "/anim.gif"), headers: conditional)
            #expect(revalidated.status == .notModified)
            let stillAnswer = try await harness.get(harness.url("w:60", "/geometry.png"), headers: headers)
            #expect(stillAnswer.headers[.contentType] == still, "\(accept)")
        }
    }

    /// Clients whose `Accept` differ only in formats an animation cannot take get the same animation under their own
    /// result keys (for a still source their results differ), and, as in imgproxy, the origin's ETag for both: a
    /// cache keyed on `Vary: Accept` revalidates each of its variants with it.
    @Test func acceptsThatDifferOnlyForStillsHaveTheirOwnKeys() async throws {
        try await ServerHarness.run(configureWithOrigin: Self.negotiating) { harness in
            let jxl = try await harness.get(harness.url("w:60", "/anim.gif"), headers: [.accept: "image/jxl"])
            let plain = try await harness.get(harness.url("w:60", "/anim.gif"), headers: [.accept: "*/*"])
            #expect(jxl.headers[.contentType] == "image/gif" && plain.headers[.contentType] == "image/gif")
            #expect(jxl.headers[.eTag] == plain.headers[.eTag])
            var configuration = ImageServerConfiguration()
            Self.negotiating(&configuration, harness.origin)
            let keys = ["image/jxl", "*/*"].map { accept in
                ResultKey(
                    options: ProcessingOptions(), source: "http://a.example/anim.gif",
                    format: FormatRequest(
                        options: ProcessingOptions(), negotiation: Negotiation(accept: accept),
                        configuration: configuration))
            }
            #expect(keys[0] != keys[1])
        }
    }

    /// Enforced JPEG XL and AVIF skip an animation too: the URL's format then, or enforced WebP; with one frame
    /// allowed the source is not an animation, and JPEG XL is answered.
    @Test func enforcedFormatsSkipAnimationsAndOneFrameIsAStill() async throws {
        try await ServerHarness.run(configureWithOrigin: { configuration, origin in
            configuration.enforcesJXL = true
            configuration.enforcesAVIF = true
            origin.register(Self.gif, at: "/anim.gif", contentType: "image/gif")
        }) { harness in
            let headers: HTTPFields = [.accept: "image/jxl,image/avif,image/webp"]
            let named = try await harness.get(harness.url("w:60", "/anim.gif", ext: "png"), headers: headers)
            #expect(named.headers[.contentType] == "image/png")
            let still = try await harness.get(harness.url("w:60", "/geometry.png", ext: "png"), headers: headers)
            #expect(still.headers[.contentType] == "image/jxl")
        }
        try await ServerHarness.run(configureWithOrigin: { configuration, origin in
            configuration.enforcesJXL = true
            configuration.limits.maxAnimationFrames = 1
            origin.register(Self.gif, at: "/anim.gif", contentType: "image/gif")
        }) { harness in
            let first = try await harness.get(harness.url("w:60", "/anim.gif"), headers: [.accept: "image/jxl"])
            #expect(first.headers[.contentType] == "image/jxl")
            #expect(try ServerHarness.image(first).frames.count == 1)
        }
    }
}
