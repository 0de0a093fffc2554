import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebImage
import WebImageServer
import WebImageTesting

/// `/info` against a live server and a local origin: the signature, each option's JSON, the settings and the errors.
@Suite struct InfoServerTests {
    static func json(_ response: TestResponse) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))
        return try #require(object as? [String: Any])
    }

    static func infoURL(_ harness: ServerHarness, _ options: String, _ path: String, signature: String = "_") -> String
    {
        let source = harness.source(path)
        let encoded = source.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? source
        return "/info/\(signature)\(options.isEmpty ? "" : "/" + options)/plain/\(encoded)"
    }

    /// Without options: size, format, MIME type, dimensions and orientation, as imgproxy's defaults.
    @Test func defaults() async throws {
        try await ServerHarness.run { harness in
            let response = try await harness.get(Self.infoURL(harness, "", "/geometry.png"))
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json")
            let json = try Self.json(response)
            #expect(json["format"] as? String == "png")
            #expect(json["mime_type"] as? String == "image/png")
            #expect(json["width"] as? Int == 200 && json["height"] as? Int == 100)
            #expect(json["orientation"] as? Int == 1)
            let size = try #require(json["size"] as? Int)
            #expect(size > 0)
            #expect(json["average"] == nil && json["blurhash"] == nil)
            let trimmed = try await harness.get(Self.infoURL(harness, "s:0/f:0/d:0", "/geometry.png"))
            #expect(try Self.json(trimmed).isEmpty)
        }
    }

    /// The pixel analyses answer what the library computes on the decoded source.
    @Test func pixelAnalyses() async throws {
        try await ServerHarness.run { harness in
            let options = "avg:1/dc:1:1/bh:4:3/th:1/ph:1/p:4/a:1:1/cs:1/b:1/sf:1/pn:1/chs:md5:sha256"
            let response = try await harness.get(Self.infoURL(harness, options, "/geometry.png"))
            #expect(response.status == .ok)
            let json = try Self.json(response)
            let pixels = TestImages.geometry
            let average = try #require(json["average"] as? [String: Int])
            #expect(average == ["R": 128, "G": 0, "B": 128, "A": 255])
            #expect(json["blurhash"] as? String == (try BlurHash.encode(pixels, xComponents: 4, yComponents: 3)))
            #expect(json["perceptual_hash"] as? String == PerceptualHash(pixels).hex)
            let thumb = ThumbHash.encode(pixels).map { String(format: "%02X", $0) }.joined()
            #expect(json["thumb_hash"] as? String == thumb)
            let dominant = try #require(json["dominant_colors"] as? [String: [String: Int]])
            #expect(
                dominant["vibrant"] == ["R": 255, "G": 0, "B": 0] || dominant["vibrant"] == ["R": 0, "G": 0, "B": 255])
            #expect(dominant.count == 6)
            let palette = try #require(json["palette"] as? [[String: Int]])
            #expect(palette.count == 2)
            #expect(json["colorspace"] as? String == "srgb")
            #expect(json["bands"] as? Int == 3)
            #expect(json["sample_format"] as? String == "uchar")
            #expect(json["pages_number"] as? Int == 1)
            #expect(json["alpha"] as? Bool == false)
            #expect(json["has_transparency"] as? Bool == false)
            let png = try ImageCoders.default.encode(Image(pixels: pixels), as: .png, options: .default)
            let sums = try #require(json["hashsums"] as? [String: String])
            #expect(sums["md5"] == Insecure.MD5.hash(data: png).map { String(format: "%02x", $0) }.joined())
            #expect(sums["sha256"] == SHA256.hash(data: png).map { String(format: "%02x", $0) }.joined())
            #expect(sums["sha1"] == nil)
        }
    }

    /// A translucent source: alpha, transparency and the average with and without transparent pixels.
    @Test func alphaAndAnimation() async throws {
        try await ServerHarness.run { harness in
            let json = try Self.json(try await harness.get(Self.infoURL(harness, "a:1:1/avg:1:0", "/alpha.png")))
            #expect(json["alpha"] as? Bool == true)
            #expect(json["has_transparency"] as? Bool == true)
            #expect(json["average"] as? [String: Int] == ["R": 0, "G": 128, "B": 0, "A": 100])
            let animation = try Self.json(try await harness.get(Self.infoURL(harness, "pn:1", "/anim.webp")))
            #expect(animation["pages_number"] as? Int == 5)
            #expect(animation["format"] as? String == "webp")
            let frames = (0..<3).map { index in
                ImageFrame(
                    pixels: PixelBuffer(
                        width: 8, height: 8, filledWith: RGBA(red: UInt8(index * 80), green: 0, blue: 0)),
                    duration: 0.1)
            }
            harness.origin.register(
                try ImageCoders.default.encode(Image(frames: frames), as: .gif, options: .default), at: "/anim.gif",
                contentType: "image/gif")
            let gif = try Self.json(try await harness.get(Self.infoURL(harness, "pn:1", "/anim.gif")))
            #expect(gif["pages_number"] as? Int == 3 && gif["format"] as? String == "gif")
        }
    }

    /// An EXIF-rotated JPEG: dimensions after orientation, the orientation, the EXIF fields by title or by name;
    /// `HEAD` answers the headers only; errors in JSON when asked.
    @Test func exifOrientationAndHead() async throws {
        try await ServerHarness.run { harness in
            harness.origin.register(
                try Fixtures.data("corpus/images/exif_Landscape_6.jpg"), at: "/rotated.jpg", contentType: "image/jpeg")
            let info = try WebImage.ImageCoders.default.info(
                of: try Fixtures.data("corpus/images/exif_Landscape_6.jpg"))
            let json = try Self.json(try await harness.get(Self.infoURL(harness, "exif:1:1/cs:1/b:1", "/rotated.jpg")))
            #expect(json["orientation"] as? Int == 6)
            #expect(json["width"] as? Int == info.height && json["height"] as? Int == info.width)
            let exif = try #require(json["exif"] as? [String: String])
            #expect(exif["Orientation"] == "6")
            #expect(json["colorspace"] as? String == "srgb" && json["bands"] as? Int == 3)
            let titled = try Self.json(try await harness.get(Self.infoURL(harness, "", "/rotated.jpg")))
            #expect((titled["exif"] as? [String: String])?["Orientation"] == "6")
            let error = try await harness.get(
                Self.infoURL(harness, "bh:10:1", "/rotated.jpg"), headers: [.accept: "application/json"])
            #expect(error.status == .notFound)
            #expect(String(buffer: error.body).hasPrefix("{\"error\":"))
        }
    }

    /// Signed like image URLs: over the path after the signature.
    @Test func signature() async throws {
        let signer = try #require(URLSigner(hexKey: "736563726574", hexSalt: "68656c6c6f"))
        try await ServerHarness.run(configure: { $0.signer = signer }) { harness in
            let unsigned = try await harness.get(Self.infoURL(harness, "avg:1", "/geometry.png"))
            #expect(unsigned.status == .forbidden)
            let path = Self.infoURL(harness, "avg:1", "/geometry.png").dropFirst("/info/_".count)
            let signed = try await harness.get("/info/\(signer.signature(for: String(path)))\(path)")
            #expect(signed.status == .ok)
            #expect(try Self.json(signed)["average"] != nil)
        }
    }

    @Test func errors() async throws {
        try await ServerHarness.run { harness in
            for (options, status) in [
                ("nope:1", HTTPResponse.Status.notFound), ("bh:10:3", .notFound), ("p:1", .notFound),
                ("p:257", .notFound), ("chs:crc32", .notFound), ("msr:1", .forbidden), ("msfs:10", .forbidden),
                ("exp:1", .notFound), ("pr:missing", .notFound),
            ] {
                let response = try await harness.get(Self.infoURL(harness, options, "/geometry.png"))
                #expect(response.status == status, "\(options)")
            }
            harness.origin.register(Data("not an image".utf8), at: "/text.png")
            #expect(
                try await harness.get(Self.infoURL(harness, "", "/text.png")).status == HTTPResponse.Status(code: 422))
            #expect(try await harness.get(Self.infoURL(harness, "", "/missing.png")).status == .notFound)
        }
    }

    /// `hashsum`: the source's digest checked against the URL's, 422 when they differ; `none` checks nothing.
    @Test func hashsumIsChecked() async throws {
        try await ServerHarness.run { harness in
            let png = try ImageCoders.default.encode(Image(pixels: TestImages.geometry), as: .png, options: .default)
            let sha256 = SHA256.hash(data: png).map { String(format: "%02x", $0) }.joined()
            let md5 = Insecure.MD5.hash(data: png).map { String(format: "%02X", $0) }.joined()
            for (option, status) in [
                ("hs:sha256:\(sha256)", 200), ("hashsum:md5:\(md5)", 200), ("hs:none", 200), ("hs:none:abc", 200),
                ("hs:sha256:\(String(sha256.reversed()))", 422), ("hs:sha1:00", 422), ("hs:crc32:00", 404),
                ("hs:md5", 404), ("hs:md5:", 404), ("hs:md5:aa:bb", 404),
            ] {
                let response = try await harness.get(Self.infoURL(harness, option, "/geometry.png"))
                #expect(response.status.code == status, "\(option): \(String(buffer: response.body))")
            }
        }
    }

    /// imgproxy Pro's other info options: those that change nothing the server can answer are taken (video ones, the
    /// others at their defaults; `iptc` changes nothing for a source without IPTC); asking for object detection,
    /// classification, crop coordinates, another page, a cache bypass or cache tags answers 404 naming the option.
    @Test func proOnlyOptionsAreTakenWhenTheyAskForNothing() async throws {
        try await ServerHarness.run { harness in
            let plain = try Self.json(try await harness.get(Self.infoURL(harness, "", "/geometry.png")))
            let taken = [
                "vm:1", "video_meta:0", "vts:2.5", "video_thumbnail_second:0", "vtk:1", "video_thumbnail_keyframes:0",
                "iptc:1", "iptc:0", "do:0", "detect_objects:false", "cl:0", "classify:0:face:cat", "c:0:0",
                "crop:0:0:ce", "op:ce:0:0", "obj_pos:ce", "objects_position:fp:0.5:0.5", "pg:0", "page:0", "bc:0",
                "bypass_cache:f", "ct:", "vm:1/iptc:1/do:0/cl:0/c:0:0/pg:0/bc:0",
            ]
            for option in taken {
                let response = try await harness.get(Self.infoURL(harness, option, "/geometry.png"))
                #expect(response.status == .ok, "\(option): \(String(buffer: response.body))")
                #expect(try Self.json(response).keys.sorted() == plain.keys.sorted(), "\(option)")
            }
            for (option, named) in [
                ("do:1", "detect_objects"), ("detect_objects:true", "detect_objects"), ("cl:3", "classify"),
                ("classify:1:face", "classify"), ("c:100:100", "crop"), ("crop:0.5:0", "crop"), ("pg:1", "page"),
                ("page:2", "page"), ("bc:1", "bypass_cache"), ("ct:a:b", "cache_tags"), ("cache_tags:x", "cache_tags"),
            ] {
                let response = try await harness.get(Self.infoURL(harness, option, "/geometry.png"))
                #expect(response.status == .notFound, "\(option)")
                #expect(String(buffer: response.body) == "info option \(named) is not supported " + Self.feature(named))
            }
            for option in ["vm:1:1", "vts:x", "vts:-1", "cl:x", "cl:-1", "c:x:1", "pg:-1", "pg:a", "op:a:b:c:d", "cl"] {
                let response = try await harness.get(Self.infoURL(harness, option, "/geometry.png"))
                #expect(response.status == .notFound, "\(option): Pro's arguments are still checked")
            }
        }
    }

    static func feature(_ option: String) -> String {
        let features = [
            "detect_objects": "object detection", "classify": "classification", "crop": "crop coordinates",
            "page": "pages other than the first", "bypass_cache": "imgproxy Pro's cache",
            "cache_tags": "imgproxy Pro's cache",
        ]
        return "(\(features[option] ?? ""))\n"
    }

    /// `--allowed-info-options`, info presets, only-presets and the security options when allowed.
    @Test func settings() async throws {
        let presets = try InfoConfiguration.presets(definitions: ["colors=avg:1/dc:1", "default=f:0"])
        try await ServerHarness.run(configure: {
            $0.info.allowedOptions = ["avg", "pr"]
            $0.info.presets = presets
        }) { harness in
            let forbidden = try await harness.get(Self.infoURL(harness, "average:1", "/geometry.png"))
            #expect(forbidden.status == .notFound, "imgproxy's forbidden option: 404")
            #expect(String(buffer: forbidden.body) == "forbidden info option average\n")
            let json = try Self.json(try await harness.get(Self.infoURL(harness, "pr:colors", "/geometry.png")))
            #expect(json["average"] != nil && json["dominant_colors"] != nil && json["format"] == nil)
        }
        try await ServerHarness.run(configure: {
            $0.info.onlyPresets = true
            $0.info.presets = presets
        }) { harness in
            let json = try Self.json(try await harness.get(Self.infoURL(harness, "colors", "/geometry.png")))
            #expect(json["average"] != nil)
        }
        try await ServerHarness.run(configure: { $0.info.allowsSecurityOptions = true }) { harness in
            let tooLarge = try await harness.get(Self.infoURL(harness, "msfs:10", "/geometry.png"))
            #expect(tooLarge.status == HTTPResponse.Status(code: 422))
            let tooMany = try await harness.get(Self.infoURL(harness, "msr:0.0001", "/geometry.png"))
            #expect(tooMany.status == HTTPResponse.Status(code: 422))
            let allowed = try await harness.get(Self.infoURL(harness, "msr:1", "/geometry.png"))
            #expect(allowed.status == .ok)
        }
        #expect(throws: ImageServerError.self) { try InfoConfiguration.presets(definitions: ["bad=bh:99:1"]) }
    }
}
