import AsyncHTTPClient
import Foundation
import NIOCore
import Testing
import WebImage
import WebImageServer
import WebImageTesting

/// `webimage serve` configured only by the `IMGPROXY_*` environment of an imgproxy deployment, as a real process.
@Suite("Server: webimage serve with imgproxy's environment", .timeLimit(.minutes(1)))
struct ServeImgproxyEnvironmentTests {
    static let (oldKey, oldSalt) = ("00112233", "44556677")
    static let (newKey, newSalt) = ("8899aabb", "ccddeeff")

    /// What an imgproxy deployment sets, with a second key and salt pair for rotation, qualities, encoders, option
    /// rules, a fallback image, JSON logs, and two variables the server does not support (`IMGPROXY_VIDEO_THUMBNAIL_SECOND`,
    /// `IMGPROXY_JPEG_TRELLIS_QUANT`) and a misspelt one.
    static func environment(cache: URL, fallback: URL) -> [String: String] {
        [
            "PATH": "/usr/bin:/bin", "XDG_CACHE_HOME": cache.path, "IMGPROXY_BIND": "127.0.0.1:0",
            "IMGPROXY_KEY": "\(oldKey),\(newKey)", "IMGPROXY_SALT": "\(oldSalt),\(newSalt)",
            "IMGPROXY_MAX_SRC_RESOLUTION": "20.5", "IMGPROXY_MAX_SRC_FILE_SIZE": "10485760",
            "IMGPROXY_MAX_ANIMATION_FRAMES": "10", "IMGPROXY_WORKERS": "2", "IMGPROXY_REQUESTS_QUEUE_SIZE": "0",
            "IMGPROXY_DOWNLOAD_TIMEOUT": "5", "IMGPROXY_TIMEOUT": "15", "IMGPROXY_TTL": "3600",
            "IMGPROXY_MAX_REDIRECTS": "1", "IMGPROXY_SECRET": "s3cret", "IMGPROXY_ALLOW_ORIGIN": "https://app.example",
            "IMGPROXY_ALLOWED_SOURCES": "http://127.0.0.1:*/fixtures/, http://127.0.0.1:*/redirect/",
            "IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES": "true", "IMGPROXY_PRESETS": "thumb=rs:fit:32:32,big=w:100",
            "IMGPROXY_PREFERRED_FORMATS": "png,jpeg", "IMGPROXY_AUTO_WEBP": "false", "IMGPROXY_LOG_LEVEL": "info",
            "IMGPROXY_ENFORCE_WEBP": "true", "IMGPROXY_QUALITY": "80", "IMGPROXY_MAX_SRC_RESOLUTON": "1",
            "IMGPROXY_FORMAT_QUALITY": "jpeg=70,webp=60", "IMGPROXY_PNG_QUANTIZE": "true",
            "IMGPROXY_PNG_QUANTIZATION_COLORS": "16", "IMGPROXY_JPEG_PROGRESSIVE": "true",
            "IMGPROXY_RETURN_ATTACHMENT": "true", "IMGPROXY_KEEP_COPYRIGHT": "false",
            "IMGPROXY_ALLOWED_PROCESSING_OPTIONS": "pr,w,msr,raw,skp", "IMGPROXY_ALLOW_SECURITY_OPTIONS": "true",
            "IMGPROXY_SKIP_PROCESSING_FORMATS": "gif", "IMGPROXY_FALLBACK_IMAGE_PATH": fallback.path,
            "IMGPROXY_FALLBACK_IMAGE_HTTP_CODE": "0", "IMGPROXY_FALLBACK_IMAGE_TTL": "60",
            "IMGPROXY_MAX_CLIENTS": "64", "IMGPROXY_LOG_FORMAT": "json", "IMGPROXY_VIDEO_THUMBNAIL_SECOND": "1",
            "IMGPROXY_JPEG_TRELLIS_QUANT": "true",
        ]
    }

    @Test func aDeploymentsEnvironmentTakesEffect() async throws {
        let executable = try #require(ServeCommandTests.executable, "webimage was not built next to the tests")
        let origin = TestImageServer()
        try await origin.start()
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("wis-imgproxy-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let fallback = cache.appendingPathComponent("fallback.png")
        try ImageCoders.default.encode(
            Image(pixels: PixelBuffer(width: 8, height: 8, filledWith: RGBA(red: 0, green: 255, blue: 0))), as: .png,
            options: .default
        ).write(to: fallback)
        let process = Process()
        process.executableURL = executable
        process.arguments = ["serve"]
        process.environment = Self.environment(cache: cache, fallback: fallback)
        let (output, errors) = (Pipe(), Pipe())
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        defer {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        let base = "http://127.0.0.1:\(try await ServeLifecycleTests.port(of: output))"
        let authorized: [(String, String)] = [("Authorization", "Bearer s3cret")]
        let signer = try #require(URLSigner(hexKey: Self.newKey, hexSalt: Self.newSalt))
        func signed(_ options: String, _ path: String) -> String {
            let source = origin.url(path).absoluteString
            let encoded = source.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? source
            let path = "/\(options)/plain/\(encoded)"
            return base + "/" + signer.signature(for: path) + path
        }
        let image = "/fixtures/corpus/images/gen_alpha.png"

        // Signed with the second pair, with the secret: the preset, the TTL, the preferred format, CORS.
        let thumb = try await Self.get(signed("pr:thumb", image), headers: authorized)
        #expect(thumb.status == 200, "\(thumb.body)")
        #expect(thumb.headers["cache-control"] == "max-age=3600, public")
        #expect(thumb.headers["access-control-allow-origin"] == "https://app.example")
        #expect(thumb.headers["access-control-allow-methods"] == "GET, OPTIONS")
        #expect(thumb.headers["content-type"] == "image/png")
        #expect(thumb.headers["content-disposition"]?.hasPrefix("attachment;") == true, "IMGPROXY_RETURN_ATTACHMENT")
        #expect(thumb.data[25] == 3, "IMGPROXY_PNG_QUANTIZE: an indexed PNG")
        let decoded = try ImageCoders.default.decode(thumb.data, options: .default)
        #expect(max(decoded.width, decoded.height) <= 32, "the preset applies: \(decoded.width)x\(decoded.height)")

        // IMGPROXY_ENFORCE_WEBP: WebP for a client that takes it, whatever the URL's format.
        let webp = try await Self.get(signed("w:10", image), headers: authorized + [("Accept", "image/webp")])
        #expect(webp.headers["content-type"] == "image/webp" && webp.headers["vary"] == "Accept")
        // IMGPROXY_ALLOWED_PROCESSING_OPTIONS and IMGPROXY_ALLOW_SECURITY_OPTIONS.
        #expect(try await Self.get(signed("h:10", image), headers: authorized).status == 404)
        #expect(try await Self.get(signed("msr:0.0001", image), headers: authorized).status == 422)
        // The fallback image, at the failure's status, with its TTL.
        let missing = try await Self.get(signed("w:4", "/fixtures/none.png"), headers: authorized)
        #expect(missing.status == 404 && missing.headers["cache-control"] == "max-age=60, public")
        #expect(try ImageCoders.default.decode(missing.data, options: .default).width == 4)

        // The secret is required (health is not); an unsigned URL is refused; so is a source outside the list.
        let noSecret = try await Self.get(signed("pr:thumb", image))
        #expect(noSecret.status == 403 && noSecret.body.contains("Invalid secret"), "\(noSecret.body)")
        #expect(try await Self.get(base + "/health").status == 200)
        let unsigned = try await Self.get(
            base + "/insecure/w:10/plain/" + origin.url(image).absoluteString, headers: authorized)
        #expect(unsigned.status == 403, "\(unsigned.body)")
        let outside = try await Self.get(signed("w:10", "/geometry.png"), headers: authorized)
        #expect(outside.status == 404 && outside.body.contains("not allowed"), "\(outside.body)")

        // One redirect is followed, two are not.
        let target = image.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? image
        #expect(try await Self.get(signed("w:10", "/redirect/1?to=\(target)"), headers: authorized).status == 200)
        #expect(try await Self.get(signed("w:10", "/redirect/2?to=\(target)"), headers: authorized).status == 404)

        // The unsupported variables are named in one warning line, sorted.
        process.terminate()
        let log = await ServeLifecycleTests.offPool {
            String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        }
        let warnings = log.split(separator: "\n").filter { $0.contains("not supported") }
        #expect(warnings.count == 1, "\(log)")
        #expect(
            warnings.first?.contains(
                "ignored: IMGPROXY_JPEG_TRELLIS_QUANT, IMGPROXY_MAX_SRC_RESOLUTON (unknown), IMGPROXY_VIDEO_THUMBNAIL_SECOND\""
            )
                == true,
            "\(log)")
        #expect(warnings.first?.hasPrefix("{\"time\":\"") == true, "IMGPROXY_LOG_FORMAT=json: \(log)")
        #expect(log.contains("\"msg\":\"request\""), "the request lines are JSON too")
        try await origin.shutdown()
    }

    /// A response's status, headers (by lowercased name), body bytes and body text.
    struct Answer {
        var status: Int
        var headers: [String: String]
        var data: Data
        var body: String { String(decoding: data, as: UTF8.self) }
    }

    /// `GET url` with `headers`.
    static func get(_ url: String, headers: [(String, String)] = []) async throws -> Answer {
        var request = HTTPClientRequest(url: url)
        request.headers.add(contentsOf: headers)
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 16 << 20)
        return Answer(
            status: Int(response.status.code),
            headers: Dictionary(response.headers.map { ($0.name.lowercased(), $0.value) }) { first, _ in first },
            data: Data(body.readableBytesView))
    }
}
