import Foundation
import Testing
import WebImage
import WebImageServer
import WebImageTesting

/// `/info` on a real `webimage serve` process, configured by imgproxy's info variables and flags, in front of a local
/// origin: the info presets (variable and file), the allowed options, only-presets mode, the signature, the secret,
/// and no start-up warning for the info variables.
@Suite("Server: /info on webimage serve", .timeLimit(.minutes(1)))
struct InfoServeProcessTests {
    static func json(_ answer: ServeImgproxyEnvironmentTests.Answer) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: answer.data) as? [String: Any], "\(answer.body)")
    }

    @Test func imgproxyInfoVariablesTakeEffect() async throws {
        let origin = TestImageServer()
        try await origin.start()
        let pixels = PixelBuffer(width: 30, height: 20, filledWith: RGBA(red: 10, green: 200, blue: 30))
        origin.register(
            try ImageCoders.default.encode(Image(pixels: pixels), as: .png, options: .default), at: "/g.png")
        let source = origin.url("/g.png").absoluteString
        let presetsFile = FileManager.default.temporaryDirectory.appendingPathComponent("info-\(UUID().uuidString)")
        try "# hashes\nhashes=ph:1/th:1\n".write(to: presetsFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: presetsFile) }
        let signer = try #require(URLSigner(hexKey: "00112233", hexSalt: "44556677"))
        func signed(_ options: String) -> String {
            let path = "/\(options)/plain/\(source.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
            return "/info/" + signer.signature(for: path) + path
        }
        let environment = [
            "IMGPROXY_KEY": "00112233", "IMGPROXY_SALT": "44556677", "IMGPROXY_SECRET": "s3cret",
            "IMGPROXY_INFO_PRESETS": "default=xmp:0/exif:0,colors=avg:1/dc:1", "IMGPROXY_TTL": "60",
            "IMGPROXY_ALLOWED_INFO_OPTIONS": "pr,bh,blurhash",
        ]
        let authorized = [("Authorization", "Bearer s3cret")]
        let log = try await ServeLifecycleTests.serve(
            environment: environment, arguments: ["--info-presets-file", presetsFile.path]
        ) {
            base in
            let colors = try await ServeImgproxyEnvironmentTests.get(
                base + signed("pr:colors/bh:3:3"), headers: authorized)
            #expect(colors.status == 200, "\(colors.body)")
            #expect(colors.headers["content-type"] == "application/json")
            #expect(colors.headers["cache-control"] == "max-age=60, public")
            let json = try Self.json(colors)
            #expect(json["average"] as? [String: Int] == ["R": 10, "G": 200, "B": 30, "A": 255])
            #expect(json["blurhash"] as? String == (try BlurHash.encode(pixels, xComponents: 3, yComponents: 3)))
            #expect(json["width"] as? Int == 30 && json["format"] as? String == "png")
            let hashes = try Self.json(
                try await ServeImgproxyEnvironmentTests.get(base + signed("pr:hashes"), headers: authorized))
            #expect(hashes["perceptual_hash"] as? String == PerceptualHash(pixels).hex)
            let notAllowed = try await ServeImgproxyEnvironmentTests.get(base + signed("avg:1"), headers: authorized)
            #expect(notAllowed.status == 404, "\(notAllowed.body)")
            let noSecret = try await ServeImgproxyEnvironmentTests.get(base + signed("pr:colors"))
            #expect(noSecret.status == 403)
            let unsigned = try await ServeImgproxyEnvironmentTests.get(
                base + "/info/_/pr:colors/plain/" + source, headers: authorized)
            #expect(unsigned.status == 403)
        }
        #expect(!log.contains("IMGPROXY_INFO") && !log.contains("IMGPROXY_ALLOWED_INFO"), "\(log)")
        let onlyPresets = try await ServeLifecycleTests.serve(environment: [
            "IMGPROXY_INFO_PRESETS": "colors=avg:1", "IMGPROXY_INFO_ONLY_PRESETS": "true",
        ]) { base in
            let encoded = source.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let answer = try await ServeImgproxyEnvironmentTests.get(base + "/info/_/colors/plain/" + encoded)
            #expect(try Self.json(answer)["average"] != nil, "\(answer.body)")
            let options = try await ServeImgproxyEnvironmentTests.get(base + "/info/_/avg:1/plain/" + encoded)
            #expect(options.status == 404, "\(options.body)")
        }
        #expect(!onlyPresets.contains("IMGPROXY_INFO"))
        try await origin.shutdown()
    }

    /// A bad info preset stops the server at start with status 64, naming it.
    @Test func aBadInfoPresetExits64() async throws {
        let (status, error) = try await ServeLifecycleTests.offPool {
            Result { try ServeLifecycleTests.run(["--info-preset", "bad=bh:10:1"]) }
        }.get()
        #expect(status == 64)
        #expect(error.contains("--info-preset"), "\(error)")
    }
}
