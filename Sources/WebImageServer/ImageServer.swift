import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import Metrics
import NIOCore
import WebImage
import WebImageStores

/// An imgproxy-compatible image server on Hummingbird, built from an ``ImageServerConfiguration``.
///
/// Mount it in an existing app with ``addRoutes(to:)-(Router<Context>)`` or, under a path,
/// ``addRoutes(to:)-(RouterGroup<Context>)``, or run it alone with
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
    /// `GET /info/...`, unless disabled (docs/info.md).
    let info: InfoResponder?
    /// Sends the errors answered to the vendors configured; `nil` with none.
    let reporter: ErrorReporter?
    /// imgproxy's gauges, for ``makeMonitoringService()`` and the leak check; `nil` when neither is on.
    let gauges: MonitoringGauges?

    /// Builds the server's parts; nothing is fetched or bound yet (``prepare()`` fetches the images given as URLs).
    ///
    /// - Throws: the first setting outside its range (``ImageServerConfiguration/validate()``), or a watermark or
    ///   fallback image given as bytes or a file that the server cannot read.
    public init(configuration: ImageServerConfiguration) throws(ImageServerConfigurationError) {
        try configuration.validate()
        self.configuration = configuration
        let limits = configuration.limits
        let gauges =
            configuration.monitoring.isEnabled || configuration.checksLeaks
            ? MonitoringGauges(
                prefix: configuration.metricsNamespace.isEmpty ? "" : configuration.metricsNamespace + "_")
            : nil
        self.gauges = gauges
        let exporters: [any MetricsFactory] = [configuration.metricsExporter, gauges].compactMap { $0 }
        let metrics = ServerMetrics(
            namespace: configuration.metricsNamespace,
            exporter: exporters.count > 1 ? MultiplexMetricsHandler(factories: exporters) : exporters.first)
        // Originals and results live in two directories of their own under the cache directory.
        var originals: any ImageCaching = ImageCaches([])
        var results: DiskCache?
        if configuration.cachesResults {
            let directory = configuration.cacheDirectory ?? DiskCache.defaultDirectory(namespace: "webimage-serve")
            originals = ImageCache(disk: DiskCache(directory: directory.appendingPathComponent("originals")))
            if configuration.cachesProcessedResults {
                results = DiskCache(directory: directory.appendingPathComponent("results"))
            }
        }
        let memoryBytes = results == nil ? 0 : configuration.resultMemoryCacheSize
        let policy = SourcePolicy(
            allowedSources: configuration.allowedSources, localRoot: configuration.localRoot,
            querySeparator: configuration.sourceQuerySeparator,
            s3Buckets: configuration.s3Sources == nil ? nil : configuration.s3SourceBuckets,
            objectStores: configuration.objectSources)
        let fetcher = SourceFetcher(
            cache: originals, limits: limits, addressPolicy: configuration.addressPolicy,
            shared: configuration.sharedStore, s3Sources: configuration.s3Sources,
            s3Buckets: configuration.s3SourceBuckets, s3AccessPoints: configuration.s3SourceAccessPoints,
            s3Decryption: configuration.s3SourceDecryption, objectSources: configuration.objectSources,
            fetching: configuration.fetching,
            propagatesTraces: configuration.propagatesTraceContextToOrigins,
            traceInstrument: configuration.originTraceInstrument, metrics: metrics,
            logger: configuration.logger)
        let coders = Self.coders(configuration)
        let watermarks = try configuration.watermark.map { watermark throws(ImageServerConfigurationError) in
            try WatermarkProvider(watermark, fetcher: fetcher, coders: coders, limits: limits)
        }
        let fallback = try configuration.fallbackImage.map { image throws(ImageServerConfigurationError) in
            try FallbackImage(image, fetcher: fetcher, coders: coders)
        }
        let tracing = RequestTracing(enabled: configuration.tracesRequests)
        reporter = ErrorReporter(configuration.errorReporting, logger: configuration.logger) { delivery in
            metrics.errorReport(delivery)
        }
        let validators = ResponseValidators(configuration.http)
        let store = ResultStore(
            disk: results, memoryBytes: memoryBytes, shared: configuration.sharedStore, tracing: tracing,
            validators: validators, keepsDebugFacts: configuration.http.sendsDebugHeaders,
            keepsFreshness: configuration.http.passesCacheControl,
            trace: configuration.tracesCache ? CacheTrace(logger: configuration.logger) : nil)
        purge = configuration.purgeKey.map {
            PurgeResponder(
                key: $0, store: store, fetcher: fetcher, policy: policy, shared: configuration.sharedStore,
                peers: configuration.peers, logger: configuration.logger)
        }
        let gate = ProcessingGate(
            slots: limits.processingSlots, queueLimit: limits.processingQueue, queueTimeout: limits.queueTimeout,
            metrics: metrics, whenIdle: configuration.whenIdle)
        info =
            configuration.info.isEnabled
            ? InfoResponder(
                parser: InfoURLParser(
                    signer: configuration.signer, configuration: configuration.info,
                    sourceURLs: configuration.sourceURLs, argumentsSeparator: configuration.argumentsSeparator),
                policy: policy,
                fetcher: fetcher, gate: gate, metrics: metrics, secret: RequestSecret(configuration.secret),
                limits: limits, ttl: configuration.ttl) : nil
        responder = ImageResponder(
            parser: ImageURLParser(
                signer: configuration.signer, presets: configuration.presets,
                defaults: configuration.optionDefaults, rules: configuration.optionRules,
                sourceURLs: configuration.sourceURLs, argumentsSeparator: configuration.argumentsSeparator),
            policy: policy,
            fetcher: fetcher,
            store: store,
            processor: ImageProcessor(
                coders: coders, limits: limits,
                formats: FormatChoice(preferred: configuration.preferredFormats), encoder: configuration.encoder,
                appliesPNGGamma: configuration.appliesPNGGamma, shrinksOnLoad: configuration.shrinksOnLoad,
                usesLinearColorspace: configuration.usesLinearColorspace,
                svg: SVGAnswer(
                    alwaysRasterizes: configuration.alwaysRasterizesSVG, sanitizes: configuration.sanitizesSVG),
                recordsStages: tracing.enabled),
            watermarks: watermarks,
            fallback: fallback,
            gate: gate,
            metrics: metrics,
            forwarder: PeerForwarder(configuration: configuration),
            secret: RequestSecret(configuration.secret),
            validators: validators,
            configuration: configuration)
    }

    /// Adds `GET /health`, `GET /metrics`, `POST /admin/purge` (with a purge key), the image routes and `HEAD` on
    /// every path under the router's or group's path.
    public func addRoutes<Context: RequestContext>(to router: Router<Context>) {
        addRoutes(to: router.group())
    }

    /// Adds `GET health` (and ``HTTPConfiguration/healthCheckPath``), `GET metrics` (Prometheus text format),
    /// `POST admin/purge` (with a purge key), `GET info/...` (docs/info.md), the image routes, a landing page at the
    /// group's root, and `HEAD` and `OPTIONS` on every path under `group`'s path: as imgproxy's router, they answer
    /// 200 with an empty body whatever the path, without looking at it (no signature check, no work). Every response
    /// carries `Server` (``HTTPConfiguration/serverName``), imgproxy's `Content-Security-Policy` and an
    /// `X-Request-ID`, and with ``ImageServerConfiguration/allowOrigin`` its CORS headers. With
    /// ``ImageServerConfiguration/secret`` image requests must carry it; the landing page, `health`, `metrics`, `HEAD`
    /// and `OPTIONS` need not, as in imgproxy.
    public func addRoutes<Context: RequestContext>(to parent: RouterGroup<Context>) {
        let group = parent.group().add(
            middleware: StandardHeadersMiddleware<Context>(
                allowOrigin: configuration.allowOrigin, serverName: configuration.http.serverName))
        // Image and info requests are traced; probes, scrapes and the landing page are not.
        let traced = configuration.tracesRequests ? group.group().add(middleware: TracingMiddleware<Context>()) : group
        group.get("/") { _, _ in Response.text(.ok, Self.landing, type: "text/html; charset=utf-8") }
        // imgproxy's `HEAD /*` and `OPTIONS /*`: on the wildcard and on every path a route of its own names (the router
        // matches such a path's node and would not fall back to the wildcard).
        let ttl = configuration.ttl
        var named: [RouterPath] = ["/", "health", "metrics"]
        let healthMessage = configuration.http.healthCheckMessage
        group.get("health") { _, _ in Self.health(healthMessage) }
        if !configuration.http.healthCheckPath.isEmpty {
            let path = RouterPath(configuration.http.healthCheckPath)
            group.get(path) { _, _ in Self.health(healthMessage) }
            named.append(path)
        }
        let shared = configuration.sharedStore
        let metrics = responder.metrics
        group.get("metrics") { _, _ in Self.metrics(metrics, shared: shared) }
        if let purge {
            group.post("admin/purge") { request, _ in await purge.respond(request) }
            named.append("admin/purge")
        }
        if info != nil { named.append("info/**") }
        for path in named + ["**"] {
            group.head(path) { _, _ in Self.headAnswer(ttl: ttl) }
            group.on(path, method: .options) { _, _ in Response.text(.ok, "") }
        }
        if let info {
            traced.get("info/**", use: timed { path, request in await info.respond(path: path, request: request) })
        }
        traced.get("**", use: imageHandler())
    }

    /// An application serving only this server's routes on `host:port` (port 0 picks a free one), accepting at most
    /// ``ImageServerConfiguration/maxClients`` connections at once.
    public func makeApplication(
        host: String, port: Int, onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        makeApplication(address: .tcp(host: host, port: port)) { bound in await onServerRunning(bound.port ?? port) }
    }

    /// An application serving this server's routes at `address`, a TCP host and port or a Unix domain socket, under
    /// ``ImageServerConfiguration/connectionTimeouts``; `onServerRunning` gets the address bound (with the port picked
    /// for port 0).
    public func makeApplication(
        address: ServerAddress, onServerRunning: @escaping @Sendable (ServerAddress) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        // imgproxy's `IMGPROXY_MAX_CLIENTS` is a limit on open connections (Go's `netutil.LimitListener`): beyond it,
        // connections wait to be accepted until one closes.
        let clients = configuration.maxClients
        return Application(
            responder: makeResponder(),
            server: .http1(configuration: http1Configuration),
            configuration: .init(
                address: address.bindAddress, serverName: configuration.http.serverName,
                availableConnectionsDelegate: clients > 0 ? MaximumAvailableConnections(clients) : nil),
            onServerRunning: { channel in await onServerRunning(address.bound(port: channel.localAddress?.port)) },
            logger: configuration.logger)
    }

    /// The responder of this server's routes under the path prefix: the router, with image `GET`s taken directly
    /// (``ImageServerResponder``).
    func makeResponder() -> ImageServerResponder<BasicRequestContext> {
        let router = Router()
        addRoutes(
            to: configuration.pathPrefix.isEmpty ? router.group() : router.group(RouterPath(configuration.pathPrefix)))
        let direct = configuration.pathPrefix.isEmpty && !configuration.tracesRequests
        let http = configuration.http
        return ImageServerResponder(
            router: router.buildResponder(), image: direct ? imageHandler() : nil,
            routedSegments: [
                "", "health", "metrics", "info", "admin",
                ImageServerResponder<BasicRequestContext>.firstSegment(of: http.healthCheckPath),
            ],
            headers: StandardHeadersMiddleware(allowOrigin: configuration.allowOrigin, serverName: http.serverName))
    }

    /// Each connection's HTTP/1 pipeline: the connection timeouts' handler and the keep-alive wait.
    var http1Configuration: HTTP1Channel.Configuration {
        let timeouts = configuration.connectionTimeouts
        let keepAlive = timeouts.keepAlive == .zero ? nil : TimeAmount(timeouts.keepAlive)
        return .init(additionalChannelHandlers: [ConnectionTimeoutHandler(timeouts: timeouts)], idleTimeout: keepAlive)
    }

    /// An application serving only `GET /metrics` of this server on `host:port`, for a scraper kept off the image
    /// port (imgproxy's `IMGPROXY_PROMETHEUS_BIND`).
    public func makeMetricsApplication(
        host: String, port: Int, onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let router = Router()
        let (metrics, shared) = (responder.metrics, configuration.sharedStore)
        router.get("metrics") { _, _ in Self.metrics(metrics, shared: shared) }
        return Application(
            router: router, configuration: .init(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) },
            logger: configuration.logger)
    }

    /// imgproxy's health answer: `message` as `text/plain`, never cached (a single space when `message` is empty,
    /// as imgproxy writes one byte at least).
    private static func health(_ message: String) -> Response {
        var response = Response.text(.ok, message.isEmpty ? " " : message, type: "text/plain")
        response.headers[.cacheControl] = "no-cache"
        return response
    }

    /// imgproxy's answer to any `HEAD`: 200, `text/plain`, no body, and the `Cache-Control` its response writer puts
    /// on a 200 (the TTL's, or `no-cache` with a TTL of 0).
    private static func headAnswer(ttl: Int) -> Response {
        var response = Response.text(.ok, "", type: "text/plain")
        response.headers[.cacheControl] = ttl > 0 ? "max-age=\(ttl), public" : "no-cache"
        return response
    }

    private static let landing = """
        <!doctype html><html><head><title>webimage serve</title></head>
        <body><p>webimage serve: an imgproxy-compatible image server.</p></body></html>

        """

    private static func metrics(_ metrics: ServerMetrics, shared: SharedStore?) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
        headers[.cacheControl] = "no-cache"
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.text(shared: shared))))
    }

    /// The raw (still percent-encoded) path after the mount point: the captured `**` rebuilt from the raw URI.
    static func imagePath<Context: RequestContext>(_ request: Request, context: Context) -> String {
        guard let captured = context.parameters[Parameters.recursiveCaptureKey] else { return request.uri.path }
        return "/" + captured.base[captured.startIndex...]
    }
}
