import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebImage
import WebImageServer
import WebImageTesting

@Suite("Server: mounted in another Hummingbird app")
struct ServerMountTests {
    @Test func routesWorkUnderAGroupBesideTheAppsOwnRoutes() async throws {
        let origin = TestImageServer()
        try await origin.start()
        TestImages.register(on: origin)
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("wis-mount-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        var configuration = ImageServerConfiguration()
        configuration.cacheDirectory = cache
        configuration.addressPolicy = SourceAddressPolicy(allowsLoopback: true)
        let server = try ImageServer(configuration: configuration)
        let router = Router()
        router.get("hello") { _, _ in "world" }
        server.addRoutes(to: router.group("img"))
        let app = Application(router: router)
        do {
            try await app.test(.router) { client in
                #expect(String(buffer: try await client.execute(uri: "/hello", method: .get).body) == "world")
                #expect(try await client.execute(uri: "/img/health", method: .get).status == .ok)
                let source = origin.url("/geometry.png").absoluteString
                let response = try await client.execute(uri: "/img/insecure/w:40/plain/\(source)@png", method: .get)
                #expect(response.status == .ok)
                let image = try ImageCoders.default.decode(Data(response.body.readableBytesView), options: .default)
                #expect((image.width, image.height) == (40, 20))
            }
        } catch {
            await server.shutdown()
            try await origin.shutdown()
            throw error
        }
        await server.shutdown()
        try await origin.shutdown()
    }

    /// imgproxy's `IMGPROXY_PATH_PREFIX`: every route under the prefix, none outside it.
    @Test func everyRouteIsServedUnderThePathPrefix() async throws {
        try await ServerHarness.run(configure: { $0.pathPrefix = "/img/v1" }) { harness async throws in
            let url = harness.url("w:50", "/geometry.png")
            #expect(try await harness.get("/img/v1" + url).status == .ok)
            #expect(try await harness.get("/img/v1/health").status == .ok)
            #expect(try await harness.get("/img/v1/metrics").status == .ok)
            #expect(try await harness.get(url).status == .notFound)
            #expect(try await harness.get("/health").status == .notFound)
        }
    }

    @Test(arguments: ["img", "/img/", "/img?x", "/a b"])
    func aPathPrefixThatIsNotAPathIsRefused(prefix: String) {
        var configuration = ImageServerConfiguration()
        configuration.pathPrefix = prefix
        #expect(throws: ImageServerConfigurationError.self) { try configuration.validate() }
    }

    @Test func qualityAndFormatQualityChangeTheBytes() async throws {
        try await ServerHarness.run { harness in
            let low = try await harness.get(harness.url("q:5", "/geometry.png", ext: "jpg")).body.readableBytes
            let high = try await harness.get(harness.url("q:100", "/geometry.png", ext: "jpg")).body.readableBytes
            let perFormat = try await harness.get(harness.url("fq:jpg:5", "/geometry.png", ext: "jpg")).body
                .readableBytes
            // imgproxy's order: the URL's `quality` wins over its `format_quality`.
            let both = try await harness.get(harness.url("q:100/fq:jpg:5", "/geometry.png", ext: "jpg")).body
                .readableBytes
            #expect(low < high)
            #expect(perFormat == low)
            #expect(both == high)
        }
    }
}
