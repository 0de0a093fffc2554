import Foundation
import Hummingbird
import Logging
import NIOCore
import WebImage

/// An imgproxy-compatible image server on Hummingbird, built from an ``ImageServerConfiguration``.
///
/// Mount it in an existing app with ``addRoutes(to:)`` (on a router or a group), or run it alone with
/// ``makeApplication(host:port:onServerRunning:)``. Call ``shutdown()`` when done.
///
/// ```swift
/// var configuration = ImageServerConfiguration()
/// configuration.signer = URLSigner(hexKey: key, hexSalt: salt)
/// let server = try ImageServer(configuration: configuration)
/// let router = Router()
/// server.addRoutes(to: router.group("images"))
/// ```
public final class ImageServer: Sendable {
    /// The configuration the server was built from.
    public let configuration: ImageServerConfiguration
    let responder: ImageResponder
    /// `POST /admin/purge`, present only with a purge key.
    let purge: PurgeResponder?

    /// Builds the server's parts; nothing is fetched or bound yet.
    public init(configuration: ImageServerConfiguration) {
        self.configuration = configuration
        let cache: any ImageCaching
        let resultTiers: ImageCacheType
        if configuration.cachesResults {
            let directory = configuration.cacheDirectory ?? DiskCache.defaultDirectory(namespace: "webimage-serve")
            cache = ImageCache(disk: DiskCache(directory: directory))
            resultTiers = .disk
        } else {
            cache = ImageCaches([])
            resultTiers = .none
        }
        let limits = configuration.limits
        let policy = SourcePolicy(
            allowedSources: configuration.allowedSources, localRoot: configuration.localRoot,
            allowsS3: configuration.s3Sources != nil)
        let fetcher = SourceFetcher(
            cache: cache, limits: limits, addressPolicy: configuration.addressPolicy,
            shared: configuration.sharedStore, s3Sources: configuration.s3Sources, logger: configuration.logger)
        let store = ResultStore(cache: cache, tiers: resultTiers, shared: configuration.sharedStore)
        purge = configuration.purgeKey.map {
            PurgeResponder(
                key: $0, store: store, fetcher: fetcher, policy: policy, shared: configuration.sharedStore,
                peers: configuration.peers, logger: configuration.logger)
        }
        responder = ImageResponder(
            parser: ImageURLParser(signer: configuration.signer, presets: configuration.presets),
            policy: policy,
            fetcher: fetcher,
            store: store,
            processor: ImageProcessor(coders: ImageCoders.default, limits: limits),
            gate: ProcessingGate(slots: limits.processingSlots, queueLimit: limits.processingQueue),
            configuration: configuration)
    }

    /// Adds `GET`/`HEAD` `/health`, `POST /admin/purge` (with a purge key) and the image routes under the router's or
    /// group's path.
    public func addRoutes<Context: RequestContext>(to router: Router<Context>) {
        addRoutes(to: router.group())
    }

    /// Adds `GET`/`HEAD` `health`, `POST admin/purge` (with a purge key) and the image routes under `group`'s path.
    public func addRoutes<Context: RequestContext>(to group: RouterGroup<Context>) {
        let responder = responder
        group.get("health") { _, _ in Self.health() }
        group.head("health") { _, _ in Self.health() }
        if let purge { group.post("admin/purge") { request, _ in await purge.respond(request) } }
        let image: @Sendable (Request, Context) async throws -> Response = { request, context in
            await responder.respond(path: Self.imagePath(request, context: context), request: request)
        }
        group.get("**", use: image)
        group.head("**", use: image)
    }

    /// An application serving only this server's routes on `host:port` (port 0 picks a free one).
    public func makeApplication(
        host: String, port: Int, onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let router = Router()
        addRoutes(to: router)
        return Application(
            router: router, configuration: .init(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) },
            logger: configuration.logger)
    }

    /// Shuts the loaders and the S3 clients (shared tier, S3 sources) down; call once the application has stopped.
    public func shutdown() async {
        await responder.fetcher.shutdown()
        try? await configuration.sharedStore?.client.shutdown()
        try? await configuration.s3Sources?.shutdown()
    }

    private static func health() -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; charset=utf-8"
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: "OK\n")))
    }

    /// The raw (still percent-encoded) path after the mount point: the captured `**` rebuilt from the raw URI.
    static func imagePath<Context: RequestContext>(_ request: Request, context: Context) -> String {
        guard let captured = context.parameters[Parameters.recursiveCaptureKey] else { return request.uri.path }
        return "/" + captured.base[captured.startIndex...]
    }
}
