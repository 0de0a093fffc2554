import Foundation
import HummingbirdTesting
import Testing
import WebImage
import WebImageServer
import WebImageTesting

/// imgproxy's handling options and settings through a live server and a local origin: `max_bytes`,
/// `skip_processing`, `keep_copyright`, `return_attachment` by default, the security options, enforced WebP,
/// the encoders' settings.
@Suite("Server: handling options and settings end to end")
struct ParityServerTests {
    /// A 400×300 noisy JPEG at quality 95: large enough that `max_bytes` has work to do.
    static let noisy: Data = {
        var state: UInt64 = 42
        let pixels = PixelBuffer(width: 400, height: 300) { buffer in
            for index in 0..<buffer.count {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                buffer[index] = index % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: state >> 56)
            }
        }
        return try! ImageCoders.default.encode(Image(pixels: pixels), as: .jpeg, options: EncodingOptions(quality: 95))
    }()

    static func body(_ response: TestResponse) -> Data { Data(response.body.readableBytesView) }

    @Test func maxBytesLowersTheQualityUntilTheResultFits() async throws {
        try await ServerHarness.run(configureWithOrigin: { _, origin in
            origin.register(Self.noisy, at: "/noisy.jpg", contentType: "image/jpeg")
        }) { harness in
            let full = try await harness.get(harness.url("q:90", "/noisy.jpg"))
            let limited = try await harness.get(harness.url("q:90/mb:40000", "/noisy.jpg"))
            #expect(full.status.code == 200 && limited.status.code == 200)
            #expect(Self.body(full).count > 40_000)
            #expect(Self.body(limited).count <= 40_000)
            let tiny = try await harness.get(harness.url("mb:10", "/noisy.jpg"))
            #expect(tiny.status.code == 200, "the quality-10 result is answered whatever its size, as imgproxy does")
            #expect(try ServerHarness.image(tiny).size == PixelSize(width: 400, height: 300))
            let png = try await harness.get(harness.url("mb:10", "/geometry.png"))
            #expect(png.headers[.contentType] == "image/png", "PNG has no quality: encoded once")
        }
    }

    @Test func skipProcessingAnswersTheSourceBytes() async throws {
        try await ServerHarness.run(configure: { $0.optionDefaults.skipProcessingFormats = [.webp] }) { harness in
            let jpeg = try await harness.get(harness.url("skp:jpg/rs:fit:50:50", "/geometry.jpg"))
            #expect(jpeg.status.code == 200 && jpeg.headers[.contentType] == "image/jpeg")
            #expect(try ServerHarness.image(jpeg).size == PixelSize(width: 200, height: 100), "not resized")
            let source = try await harness.get(harness.url("raw:1", "/geometry.jpg"))
            #expect(Self.body(jpeg) == Self.body(source))
            let webp = try await harness.get(harness.url("w:50", "/geometry.webp"))
            #expect(webp.headers[.contentType] == "image/webp", "the server's --skip-processing-formats")
            #expect(webp.headers[.contentDisposition] == "inline; filename=\"geometry.webp\"")
            let converted = try await harness.get(harness.url("skp:jpg/w:50", "/geometry.jpg", ext: "png"))
            #expect(converted.headers[.contentType] == "image/png", "another format in the URL processes it")
            #expect(try ServerHarness.image(converted).size == PixelSize(width: 50, height: 25))
            let same = try await harness.get(harness.url("skp:jpg/w:50", "/geometry.jpg", ext: "jpg"))
            #expect(try ServerHarness.image(same).size == PixelSize(width: 200, height: 100))
            let png = try await harness.get(harness.url("skp:jpg/w:50", "/geometry.png"))
            #expect(try ServerHarness.image(png).size == PixelSize(width: 50, height: 25), "png is not listed")
        }
    }

    @Test func skipProcessingStillChecksTheResolution() async throws {
        try await ServerHarness.run(configure: { $0.limits.maxSourceResolution = 10_000 }) { harness in
            let response = try await harness.get(harness.url("skp:png", "/geometry.png"))
            #expect(response.status.code == 422)
        }
    }

    @Test func securityOptionsAreRefusedUnlessAllowed() async throws {
        try await ServerHarness.run { harness in
            let response = try await harness.get(harness.url("msr:0.001", "/geometry.png"))
            #expect(response.status.code == 403)
        }
        try await ServerHarness.run(configure: { $0.optionRules.allowsSecurityOptions = true }) { harness in
            #expect(try await harness.get(harness.url("msr:0.001", "/geometry.png")).status.code == 422)
            #expect(try await harness.get(harness.url("msr:0.02", "/geometry.png")).status.code == 200)
            #expect(try await harness.get(harness.url("msfs:100", "/geometry.jpg")).status.code == 422)
            let small = try await harness.get(harness.url("mrd:50", "/geometry.png"))
            #expect(try ServerHarness.image(small).size == PixelSize(width: 50, height: 25))
            let frames = try await harness.get(harness.url("maf:2", "/anim.webp", ext: "webp"))
            #expect(try ServerHarness.image(frames).frames.count == 2)
            #expect(try await harness.get(harness.url("mafr:0.0001", "/anim.webp", ext: "webp")).status.code == 422)
            #expect(try await harness.get(harness.url("mafr:0.001", "/anim.webp", ext: "webp")).status.code == 200)
        }
    }

    @Test func allowedOptionsAndOnlyPresetsAreEnforced() async throws {
        try await ServerHarness.run(configure: {
            $0.optionRules.allowedOptions = ["w", "pr"]
            $0.presets = try! Presets(definitions: ["thumb=rs:fill:20:20"])
        }) { harness in
            #expect(try await harness.get(harness.url("w:50", "/geometry.png")).status.code == 200)
            #expect(try await harness.get(harness.url("h:50", "/geometry.png")).status.code == 404)
            let thumb = try await harness.get(harness.url("pr:thumb", "/geometry.png"))
            #expect(try ServerHarness.image(thumb).size == PixelSize(width: 20, height: 20))
        }
        try await ServerHarness.run(configure: {
            $0.optionRules.onlyPresets = true
            $0.presets = try! Presets(definitions: ["thumb=rs:fill:20:20", "wide=w:80"])
        }) { harness in
            let thumb = try await harness.get(harness.url("thumb", "/geometry.png"))
            #expect(try ServerHarness.image(thumb).size == PixelSize(width: 20, height: 20))
            #expect(try await harness.get(harness.url("w:50", "/geometry.png")).status.code == 404)
        }
    }

    @Test func returnAttachmentAndCopyrightFollowTheServersDefaults() async throws {
        let exif = CopyrightSamples.exif
        let jpeg = try ImageCoders.default.encode(
            Image(frames: [ImageFrame(pixels: TestImages.geometry)], exif: exif), as: .jpeg,
            options: EncodingOptions(embedsMetadata: true))
        try await ServerHarness.run(configureWithOrigin: { configuration, origin in
            origin.register(jpeg, at: "/exif.jpg", contentType: "image/jpeg")
            configuration.optionDefaults.returnAttachment = true
        }) { harness in
            let kept = Self.body(try await harness.get(harness.url("w:100", "/exif.jpg")))
            #expect(kept.range(of: Data("ACME 2026".utf8)) != nil && kept.range(of: Data("MakerCo".utf8)) == nil)
            let stripped = Self.body(try await harness.get(harness.url("w:100/kcr:0", "/exif.jpg")))
            #expect(stripped.range(of: Data("ACME 2026".utf8)) == nil)
            let all = Self.body(try await harness.get(harness.url("w:100/sm:0", "/exif.jpg")))
            #expect(all.range(of: Data("MakerCo".utf8)) != nil)
            let response = try await harness.get(harness.url("w:100", "/geometry.png"))
            #expect(response.headers[.contentDisposition] == "attachment; filename=\"geometry.png\"")
            let inline = try await harness.get(harness.url("w:100/att:0", "/geometry.png"))
            #expect(inline.headers[.contentDisposition] == "inline; filename=\"geometry.png\"")
        }
    }

    /// `keep_copyright` as imgproxy keeps it: EXIF `Copyright` and `Artist`, the XMP rights properties and (in JPEG)
    /// the IPTC By-line, Credit and Copyright Notice survive the strip; `kcr:0` drops them, `sm:0` keeps everything.
    @Test func keepCopyrightKeepsTheEXIFXMPAndIPTCRights() async throws {
        let source = Image(
            frames: [ImageFrame(pixels: TestImages.geometry)], exif: CopyrightSamples.exif, xmp: CopyrightSamples.xmp,
            iptc: CopyrightSamples.iptc)
        let jpeg = try ImageCoders.default.encode(source, as: .jpeg, options: EncodingOptions(embedsMetadata: true))
        try await ServerHarness.run(configureWithOrigin: { _, origin in
            origin.register(jpeg, at: "/rights.jpg", contentType: "image/jpeg")
        }) { harness in
            func text(_ options: String, ext: String? = nil) async throws -> String {
                let response = try await harness.get(harness.url(options, "/rights.jpg", ext: ext))
                #expect(response.status == .ok)
                return String(decoding: Self.body(response), as: UTF8.self)
            }
            let kept = try await text("w:100")
            for field in CopyrightSamples.keptTexts { #expect(kept.contains(field), "\(field)") }
            for field in CopyrightSamples.droppedTexts { #expect(!kept.contains(field), "\(field)") }
            for ext in ["png", "webp"] {
                let other = try await text("w:100", ext: ext)
                for field in ["Jane Doe", "acme.example/license", "licenses/by/4.0"] {
                    #expect(other.contains(field), "\(ext): \(field)")
                }
                #expect(!other.contains("ACME Credit"), "\(ext) carries no IPTC")
                for field in CopyrightSamples.droppedTexts { #expect(!other.contains(field), "\(ext): \(field)") }
            }
            let stripped = try await text("w:100/kcr:0")
            for field in CopyrightSamples.keptTexts { #expect(!stripped.contains(field), "\(field)") }
            let all = try await text("w:100/sm:0")
            for field in CopyrightSamples.keptTexts + CopyrightSamples.droppedTexts {
                #expect(all.contains(field), "\(field)")
            }
        }
    }

    @Test func enforceThumbnailDecodesAHEIFsEmbeddedThumbnail() async throws {
        try await ServerHarness.run { harness in
            let path = "/fixtures/formats/images/heic_thumb.heic"
            let full = try await harness.get(harness.url("f:png", path))
            #expect(try ServerHarness.image(full).size == PixelSize(width: 128, height: 96))
            let thumbnail = try await harness.get(harness.url("eth:1/f:png", path))
            #expect(try ServerHarness.image(thumbnail).size == PixelSize(width: 32, height: 24))
            let plain = try await harness.get(harness.url("eth:1/f:png", "/fixtures/formats/images/heic_rgb.heic"))
            #expect(try ServerHarness.image(plain).size == PixelSize(width: 128, height: 96), "none: the full image")
            let avif = "/fixtures/formats/images/avif_thumb.avif"
            let avifFull = try await harness.get(harness.url("f:png", avif))
            #expect(try ServerHarness.image(avifFull).size == PixelSize(width: 128, height: 96))
            let avifThumbnail = try await harness.get(harness.url("eth:1/f:png", avif))
            #expect(try ServerHarness.image(avifThumbnail).size == PixelSize(width: 32, height: 24), "AVIF's too")
        }
    }

    @Test func enforcedWebPWinsOverTheURLsFormat() async throws {
        try await ServerHarness.run(configure: { $0.enforcesWebP = true }) { harness in
            let webp = try await harness.get(
                harness.url("w:50", "/geometry.png", ext: "png"), headers: [.accept: "image/webp"])
            #expect(webp.headers[.contentType] == "image/webp" && webp.headers[.vary] == "Accept")
            let png = try await harness.get(harness.url("w:50", "/geometry.png", ext: "png"))
            #expect(png.headers[.contentType] == "image/png")
        }
    }

    @Test func theEncodersSettingsReachTheResult() async throws {
        try await ServerHarness.run(configure: {
            $0.encoder.jpegProgressive = true
            $0.encoder.pngQuantize = true
            $0.encoder.pngQuantizationColors = 8
            $0.encoder.pngInterlaced = true
        }) { harness in
            let jpeg = Self.body(try await harness.get(harness.url("w:100", "/geometry.jpg")))
            #expect(jpeg.range(of: Data([0xFF, 0xC2])) != nil, "a progressive frame header")
            let png = Self.body(try await harness.get(harness.url("w:100", "/geometry.png")))
            #expect(png[25] == 3 && png[28] == 1, "indexed and interlaced")
        }
    }

    @Test func aFormatsDefaultQualityFollowsImgproxysOrder() async throws {
        try await ServerHarness.run(configureWithOrigin: { configuration, origin in
            origin.register(Self.noisy, at: "/noisy.jpg", contentType: "image/jpeg")
            configuration.encoder.formatQuality = [.jpeg: 20]
        }) { harness in
            let low = Self.body(try await harness.get(harness.url("w:200", "/noisy.jpg")))
            let url = Self.body(try await harness.get(harness.url("w:200/q:90", "/noisy.jpg")))
            let pair = Self.body(try await harness.get(harness.url("w:200/fq:jpg:90", "/noisy.jpg")))
            let both = Self.body(try await harness.get(harness.url("w:200/q:20/fq:jpg:90", "/noisy.jpg")))
            #expect(low.count < url.count && url.count == pair.count, "the URL's quality, then the server's")
            #expect(both.count == low.count, "quality wins over format_quality, as in imgproxy")
        }
    }
}
