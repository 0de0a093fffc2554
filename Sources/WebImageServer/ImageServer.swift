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

    /// Builds the server's parts; nothing is fetched or bound yet.
    public init(configuration: ImageServerConfiguration) {
        self.configuration = configuration
        let cache: any ImageCaching
        var resultTiers = ImageCacheType.none
        var memoryBytes = 0
        if configuration.cachesResults {
            let directory = configuration.cacheDirectory ?? DiskCache.defaultDirectory(namespace: "webimage-serve")
            cache = ImageCache(disk: DiskCache(directory: directory))
            if configuration.cachesProcessedResults {
                resultTiers = .disk
                memoryBytes = configuration.resultMemoryCacheSize
            }
        } else {
            cache = ImageCaches([])
        }
        let limits = configuration.limits
        let metrics = ServerMetrics()
        responder = ImageResponder(
            parser: ImageURLParser(signer: configuration.signer, presets: configuration.presets),
            policy: SourcePolicy(allowedSources: configuration.allowedSources, localRoot: configuration.localRoot),
            fetcher: SourceFetcher(
                cache: cache, limits: limits, addressPolicy: configuration.addressPolicy, logger: configuration.logger),
            store: ResultStore(cache: cache, tiers: resultTiers, memoryBytes: memoryBytes),
            processor: ImageProcessor(coders: ImageCoders.default, limits: limits),
            gate: ProcessingGate(
                slots: limits.processingSlots, queueLimit: limits.processingQueue, queueTimeout: limits.queueTimeout,
                metrics: metrics),
            metrics: metrics,
            configuration: configuration)
    }

    /// Adds `GET`/`HEAD` `/health`, `GET /metrics` and the image routes under the router's or group's path.
    public func addRoutes<Context: RequestContext>(to router: Router<Context>) {
        addRoutes(to: router.group())
    }

    /// Adds `GET`/`HEAD` `health`, `GET metrics` (Prometheus text format) and the image routes under `group`'s path.
    public func addRoutes<Context: RequestContext>(to group: RouterGroup<Context>) {
        let responder = responder
        let log = RequestLog(logger: configuration.logger)
        group.get("health") { _, _ in Self.health() }
        group.head("health") { _, _ in Self.health() }
        group.get("metrics") { _, _ in Self.metrics(responder.metrics) }
        let image: @Sendable (Request, Context) async throws -> Response = { request, context in
            let start = ContinuousClock.now
            let outcome = await responder.respond(path: Self.imagePath(request, context: context), request: request)
            log.record(outcome, method: request.method, seconds: start.secondsUntilNow)
            return outcome.response
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

    /// Waits for pending disk writes and shuts the loaders and the processing threads down; call once the
    /// application has stopped.
    public func shutdown() async {
        await responder.fetcher.shutdown()
        await responder.gate.shutdown()
    }

    private static func health() -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; charset=utf-8"
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: "OK\n")))
    }

    private static func metrics(_ metrics: ServerMetrics) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
        headers[.cacheControl] = "no-cache"
        return Response(
            status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.text())))
    }

    /// The raw (still percent-encoded) path after the mount point: the captured `**` rebuilt from the raw URI.
    static func imagePath<Context: RequestContext>(_ request: Request, context: Context) -> String {
        guard let captured = context.parameters[Parameters.recursiveCaptureKey] else { return request.uri.path }
        return "/" + captured.base[captured.startIndex...]
    }
}
