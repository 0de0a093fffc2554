import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import WebImage
import WebImageServer
import WebImageTesting

/// A live `ImageServer` on 127.0.0.1 port 0 (Hummingbird's live test framework), in front of a `TestImageServer`.
struct ServerHarness {
    let client: any TestClientProtocol
    let origin: TestImageServer
    let server: ImageServer

    /// The origin URL of `path`.
    func source(_ path: String) -> String { origin.url(path).absoluteString }

    /// `GET` (or `method`) of `path` with `headers`.
    func get(
        _ path: String, headers: HTTPFields = [:], method: HTTPRequest.Method = .get
    ) async throws -> TestResponse {
        try await client.execute(uri: path, method: method, headers: headers)
    }

    /// An unsigned processing URL of an origin path: `/insecure/OPTIONS/plain/URL`.
    func url(_ options: String, _ path: String, ext: String? = nil) -> String {
        let encoded = source(path).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? source(path)
        let prefix = options.isEmpty ? "/insecure" : "/insecure/\(options)"
        return "\(prefix)/plain/\(encoded)\(ext.map { "@" + $0 } ?? "")"
    }

    /// The decoded result of a response.
    static func image(_ response: TestResponse) throws -> Image {
        try ImageCoders.default.decode(Data(response.body.readableBytesView), options: .default)
    }

    /// Starts the origin and the server, runs `body`, shuts both down (also when `body` throws).
    static func run(
        configure: (inout ImageServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (ServerHarness) async throws -> Void
    ) async throws {
        try await run(configureWithOrigin: { configuration, _ in configure(&configuration) }, body)
    }

    /// As ``run(configure:_:)``, with the started origin at hand to configure the server (a setting that names one of
    /// its URLs); the server fetches its images given as URLs first (``ImageServer/prepare()``), as `webimage serve`
    /// does, unless `prepares` is off.
    static func run(
        configureWithOrigin configure: (inout ImageServerConfiguration, TestImageServer) -> Void,
        prepares: Bool = true, _ body: @Sendable (ServerHarness) async throws -> Void
    ) async throws {
        let origin = TestImageServer()
        try await origin.start()
        TestImages.register(on: origin)
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-serve-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        var configuration = ImageServerConfiguration()
        configuration.cacheDirectory = cache
        configuration.addressPolicy = SourceAddressPolicy(allowsLoopback: true)
        configure(&configuration, origin)
        let server = try ImageServer(configuration: configuration)
        if prepares {
            do { try await server.prepare() } catch {
                await server.shutdown()
                try await origin.shutdown()
                throw error
            }
        }
        let app = server.makeApplication(host: "127.0.0.1", port: 0)
        do {
            try await app.test(.live) { client in
                try await body(ServerHarness(client: client, origin: origin, server: server))
            }
        } catch {
            await server.shutdown()
            try await origin.shutdown()
            throw error
        }
        await server.shutdown()
        try await origin.shutdown()
    }
}

/// Images made in memory and served by the origin.
enum TestImages {
    /// A 200×100 opaque image, left half red, right half blue (imgproxy's `geometry.png` size).
    static let geometry = PixelBuffer(width: 200, height: 100) { buffer in
        for y in 0..<100 {
            for x in 0..<200 {
                let index = (y * 200 + x) * 4
                buffer[index] = x < 100 ? 255 : 0
                buffer[index + 1] = 0
                buffer[index + 2] = x < 100 ? 0 : 255
                buffer[index + 3] = 255
            }
        }
    }

    /// A 64×64 half-transparent image.
    static let alpha = PixelBuffer(width: 64, height: 64, filledWith: RGBA(red: 0, green: 128, blue: 0, alpha: 100))

    static func register(on origin: TestImageServer) {
        let coders = ImageCoders.default
        if let png = try? coders.encode(Image(pixels: geometry), as: .png, options: .default) {
            origin.register(png, at: "/geometry.png")
        }
        if let jpeg = try? coders.encode(Image(pixels: geometry), as: .jpeg, options: .default) {
            origin.register(jpeg, at: "/geometry.jpg", contentType: "image/jpeg")
        }
        if let png = try? coders.encode(Image(pixels: alpha), as: .png, options: .default) {
            origin.register(png, at: "/alpha.png")
        }
        // Still WebP, which imgproxy does not keep by default (not a preferred format): opaque and with alpha.
        for (name, pixels) in [("geometry", geometry), ("alpha", alpha)] {
            if let webp = try? coders.encode(Image(pixels: pixels), as: .webp, options: .default) {
                origin.register(webp, at: "/\(name).webp", contentType: "image/webp")
            }
        }
        let frames = (0..<5).map { index in
            ImageFrame(
                pixels: PixelBuffer(width: 40, height: 20, filledWith: RGBA(red: UInt8(index * 50), green: 0, blue: 0)),
                duration: 0.1)
        }
        if let webp = try? coders.encode(Image(frames: frames), as: .webp, options: .default) {
            origin.register(webp, at: "/anim.webp", contentType: "image/webp")
        }
        // HEIC, which the server reads but does not write: opaque and with alpha.
        for name in ["heic_rgb", "heic_alpha"] {
            if let heic = try? Fixtures.data("formats/images/\(name).heic") {
                origin.register(heic, at: "/\(name).heic", contentType: "image/heic")
            }
        }
    }
}
