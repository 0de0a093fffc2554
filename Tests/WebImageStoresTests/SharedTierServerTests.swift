import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebImage
import WebImageTesting

@testable import WebImageServer
@testable import WebImageStores

/// Two live `ImageServer`s sharing one tier in a live SeaweedFS, in front of one test origin: what one node made the
/// other serves without the origin, and a purge sent to one node reaches the tier and the other node.
@Suite(.serialized) struct SharedTierServerTests {
    static let purgeKey: [UInt8] = Array("purge-secret".utf8)

    @Test func nodesShareOriginalsAndResultsAndAPurgeReachesEveryTier() async throws {
        let seaweed = try await SeaweedFS.start()
        defer { seaweed.process.stop() }
        let origin = TestImageServer()
        try await origin.start()
        let photo = try Fixtures.data("corpus/images/exif_Landscape_1.jpg")
        origin.register(photo, at: "/photo.jpg", contentType: "image/jpeg", etag: "\"p1\"")
        let source = origin.url("/photo.jpg").absoluteString
        let encoded = source.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? source

        let setup = S3Client(
            configuration: .init(endpoint: seaweed.endpoint, credentials: seaweed.credentials, timeout: .seconds(10)))
        try await setup.createBucketReadyForWrites("cluster")
        try await setup.shutdown()

        let second = try Self.node(seaweed, peers: [])
        try await second.app.test(.live) { secondClient in
            let peer = URL(string: "http://127.0.0.1:\(secondClient.port ?? 0)")!
            let first = try Self.node(seaweed, peers: [peer])
            try await first.app.test(.live) { firstClient in
                let small = "/insecure/rs:fit:40:40/plain/\(source)@png"
                let made = try await firstClient.execute(uri: small, method: .get)
                #expect(made.status == .ok && made.headers[.eTag] == "\"p1\"")
                #expect(origin.requestCount("/photo.jpg") == 1)

                // The other node serves the same result from the tier, and a new size from the shared original.
                // Both carry the origin's ETag, kept with the shared result and with the shared original.
                let shared = try await secondClient.execute(uri: small, method: .get)
                #expect(shared.status == .ok && shared.headers[.eTag] == "\"p1\"")
                #expect(second.server.responder.store.madeCount == 0)
                let large = "/insecure/rs:fit:80:80/plain/\(source)@png"
                let fromOriginal = try await secondClient.execute(uri: large, method: .get)
                #expect(fromOriginal.status == .ok && fromOriginal.headers[.eTag] == "\"p1\"")
                #expect(second.server.responder.store.madeCount == 1)
                #expect(origin.requestCount("/photo.jpg") == 1)

                let bad = try await firstClient.execute(
                    uri: "/admin/purge?source=\(encoded)&signature=AAAA", method: .post)
                #expect(bad.status == .forbidden)

                let signature = Base64URL.encode(
                    Array(
                        HMAC<SHA256>.authenticationCode(
                            for: Array(source.utf8), using: SymmetricKey(data: Self.purgeKey))))
                let purged = try await firstClient.execute(
                    uri: "/admin/purge?source=\(encoded)&signature=\(signature)", method: .post)
                #expect(purged.status == .ok)
                // The tier's original and two results; the first node's result and original; the second node's two
                // results and original.
                let removed = Int(
                    String(buffer: purged.body).split(separator: " ").last?.trimmingCharacters(
                        in: .whitespacesAndNewlines) ?? "")
                #expect(removed == 3 + (1 + 1) + (2 + 1))
                let store = try #require(first.server.configuration.sharedStore)
                #expect(await store.original(source: source) == nil)

                // Every tier forgot it: the next request goes to the origin once more.
                #expect(try await secondClient.execute(uri: small, method: .get).status == .ok)
                #expect(origin.requestCount("/photo.jpg") == 2)
            }
            await first.server.shutdown()
            try await first.server.configuration.sharedStore?.client.shutdown()  // made by the test, shut down by it
        }
        await second.server.shutdown()
        try await second.server.configuration.sharedStore?.client.shutdown()
        try await origin.shutdown()
    }

    /// With `--cache-control-passthrough`, the origin's `Cache-Control` is kept with the shared result and with the
    /// shared original: the other node answers both with it, without the origin.
    @Test func theOriginsCacheControlTravelsThroughTheTier() async throws {
        let seaweed = try await SeaweedFS.start()
        defer { seaweed.process.stop() }
        let origin = TestImageServer()
        try await origin.start()
        let photo = try Fixtures.data("corpus/images/exif_Landscape_1.jpg")
        let cacheControl = "public, max-age=321"
        origin.register(photo, at: "/cc.jpg", contentType: "image/jpeg", headers: [("Cache-Control", cacheControl)])
        let source = origin.url("/cc.jpg").absoluteString
        let setup = S3Client(
            configuration: .init(endpoint: seaweed.endpoint, credentials: seaweed.credentials, timeout: .seconds(10)))
        try await setup.createBucketReadyForWrites("cluster")
        try await setup.shutdown()

        let firstTrace = LogCapture()
        let first = try Self.node(seaweed, peers: [], passesCacheControl: true, trace: firstTrace)
        try await first.app.test(.live) { client in
            let made = try await client.execute(uri: "/insecure/rs:fit:40:40/plain/\(source)@png", method: .get)
            #expect(made.status == .ok && made.headers[.cacheControl] == cacheControl)
        }
        await first.server.shutdown()
        try await first.server.configuration.sharedStore?.client.shutdown()
        // The cache trace names the shared tier's store as the memory's and the disk's.
        let stores = firstTrace.lines.withLock { $0 }.filter {
            $0.contains("cache trace") && $0.contains("event=store")
        }
        #expect(
            Set(stores.compactMap { $0.split(separator: " ").first { $0.hasPrefix("tier=") } }) == [
                "tier=memory", "tier=disk", "tier=shared",
            ], "\(stores)")
        let second = try Self.node(seaweed, peers: [], passesCacheControl: true)
        try await second.app.test(.live) { client in
            for size in [40, 80] {
                let answer = try await client.execute(
                    uri: "/insecure/rs:fit:\(size):\(size)/plain/\(source)@png", method: .get)
                #expect(answer.status == .ok && answer.headers[.cacheControl] == cacheControl, "\(size)")
            }
            #expect(second.server.responder.store.madeCount == 1, "the 40 from the shared result, the 80 made")
        }
        #expect(origin.requestCount("/cc.jpg") == 1, "the 80 from the shared original")
        await second.server.shutdown()
        try await second.server.configuration.sharedStore?.client.shutdown()
        try await origin.shutdown()
    }

    @Test func withoutAPurgeKeyThereIsNoPurgeRoute() async throws {
        let server = try ImageServer(configuration: ImageServerConfiguration())
        try await server.makeApplication(host: "127.0.0.1", port: 0).test(.router) { client in
            let response = try await client.execute(uri: "/admin/purge?source=x&signature=y", method: .post)
            #expect(response.status == .notFound)
        }
        await server.shutdown()
    }

    /// A node with its own temporary disk cache, the shared tier `s3://cluster/t` and the purge key (and, with
    /// `passesCacheControl`, the origin's `Cache-Control` passed on; with `trace`, `--vips-cache-trace`'s lines kept
    /// there).
    private static func node(
        _ seaweed: SeaweedFS, peers: [URL], passesCacheControl: Bool = false, trace: LogCapture? = nil
    ) throws -> (server: ImageServer, app: some ApplicationProtocol) {
        var configuration = ImageServerConfiguration()
        configuration.http.passesCacheControl = passesCacheControl
        if let trace {
            configuration.tracesCache = true
            configuration.logger = trace.logger
        }
        configuration.cacheDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "webimage-node-\(UUID().uuidString)")
        configuration.addressPolicy = SourceAddressPolicy(allowsLoopback: true)
        let client = S3Client(
            configuration: .init(endpoint: seaweed.endpoint, credentials: seaweed.credentials, timeout: .seconds(5)))
        configuration.sharedStore = SharedStore(location: try SharedStoreLocation("s3://cluster/t"), client: client)
        configuration.purgeKey = purgeKey
        configuration.peers = peers
        let server = try ImageServer(configuration: configuration)
        return (server, server.makeApplication(host: "127.0.0.1", port: 0))
    }
}
