import CoreMetrics
import Foundation
import Instrumentation
import Logging
import WebImage
import WebImageStores

/// Everything an ``ImageServer`` is built from; `Sendable`, so one value can build servers anywhere.
public struct ImageServerConfiguration: Sendable {
    /// The URL signer; `nil` accepts any signature (imgproxy without a key).
    public var signer: URLSigner?
    /// Named option lists; `default` applies to every request.
    public var presets = Presets()
    /// The `/info` endpoint's settings (docs/info.md).
    public var info = InfoConfiguration()
    /// When not empty, a source must start with one of these prefixes, where `*` matches any characters but `/`
    /// (imgproxy's `IMGPROXY_ALLOWED_SOURCES`: `https://*.example.com/`).
    public var allowedSources: [String] = []
    /// The directory `local://` sources are read from; `nil` refuses `local://`.
    public var localRoot: URL?
    /// The disk cache directory for originals and results; `nil` uses the library's default directory for the
    /// `webimage-serve` namespace.
    public var cacheDirectory: URL?
    /// Whether anything is cached at all (`--no-cache` turns it off).
    public var cachesResults = true
    /// Whether processed results are cached (`--no-result-cache` turns it off; originals are still cached).
    public var cachesProcessedResults = true
    /// The most bytes of encoded results kept in memory, in front of the disk cache. Default 64 MiB; 0 keeps none.
    public var resultMemoryCacheSize = 64 * 1024 * 1024
    /// The token image requests must carry as `Authorization: Bearer SECRET` (imgproxy's `IMGPROXY_SECRET`), compared
    /// in constant time; without it they are answered 403. `/health`, `/metrics` and `OPTIONS` need none. `nil`
    /// (the default) asks for none.
    public var secret: String?
    /// The origin sent as `Access-Control-Allow-Origin`, with `Access-Control-Allow-Methods: GET, OPTIONS`, on every
    /// response (imgproxy's `IMGPROXY_ALLOW_ORIGIN`); `nil` (the default) sends no CORS headers.
    public var allowOrigin: String?
    /// The limits checked before the work they guard.
    public var limits = ServerLimits()
    /// The `Server` header, the health check and the validators (imgproxy's HTTP settings).
    public var http = HTTPConfiguration()
    /// Where the errors the server answers with are reported (imgproxy's Sentry, Bugsnag, Honeybadger and Airbrake
    /// reporters); default nowhere.
    public var errorReporting = ErrorReportingConfiguration()
    /// `Cache-Control: max-age` of results, in seconds. Default one year.
    public var ttl = 31_536_000
    /// Answer WebP when the client's `Accept` has `image/webp` and the URL names no format (imgproxy's
    /// `IMGPROXY_AUTO_WEBP`). Default off, as imgproxy's.
    public var autoWebP = false
    /// Answer AVIF when the client's `Accept` has `image/avif` and the URL names no format (before WebP), as
    /// imgproxy's `IMGPROXY_AUTO_AVIF`. Default off, as imgproxy's.
    public var autoAVIF = false
    /// Answer JPEG XL when the client's `Accept` has `image/jxl` and the URL names no format (before AVIF and WebP),
    /// as imgproxy's `IMGPROXY_AUTO_JXL`. Default off.
    public var autoJXL = false
    /// Answer JPEG XL whenever the client's `Accept` has `image/jxl`, even when the URL names another format, as
    /// imgproxy's `IMGPROXY_ENFORCE_JXL`. Default off.
    public var enforcesJXL = false
    /// Convert PNGs that describe their colours only with `gAMA` and `cHRM` to sRGB, as browsers do
    /// (`DecodingOptions.appliesPNGGamma`, on by default in the library). Default off here: imgproxy (libvips)
    /// ignores those chunks, and a drop-in replacement answers the same pixels.
    public var appliesPNGGamma = false
    /// Decode JPEG, WebP, HEIC and AVIF sources smaller when the result is smaller (imgproxy's scale on load: a JPEG's
    /// DCT shrink, a WebP's scaled decode, a HEIF thumbnail), with imgproxy's arithmetic for the crop that follows.
    /// Default on; off is imgproxy's `IMGPROXY_DISABLE_SHRINK_ON_LOAD`.
    public var shrinksOnLoad = true
    /// Resize in linear light (imgproxy's `IMGPROXY_USE_LINEAR_COLORSPACE`): the samples are turned from sRGB's
    /// curve to linear values before resampling and back after. Default off, as in imgproxy.
    public var usesLinearColorspace = false
    /// The formats a result keeps its source's format in when the request names none, and otherwise chosen from, in
    /// order (imgproxy's `IMGPROXY_PREFERRED_FORMATS`): an animation takes the first that animates, an image with
    /// alpha the first with alpha. Default JPEG, PNG, GIF; formats the server cannot write are ignored.
    public var preferredFormats = FormatChoice.imgproxyDefault
    /// Answer WebP whenever the client's `Accept` has `image/webp`, even when the URL names another format
    /// (imgproxy's `IMGPROXY_ENFORCE_WEBP`; it implies ``autoWebP``). Default off.
    public var enforcesWebP = false
    /// Answer AVIF whenever the client's `Accept` has `image/avif`, even when the URL names another format, before
    /// WebP (imgproxy's `IMGPROXY_ENFORCE_AVIF`; it implies ``autoAVIF``). Default off.
    public var enforcesAVIF = false
    /// The options every request starts from before its presets and URL options: imgproxy's settings of their
    /// defaults (`IMGPROXY_STRIP_METADATA`, `IMGPROXY_KEEP_COPYRIGHT`, `IMGPROXY_STRIP_COLOR_PROFILE`,
    /// `IMGPROXY_AUTO_ROTATE`, `IMGPROXY_ENFORCE_THUMBNAIL`, `IMGPROXY_RETURN_ATTACHMENT`,
    /// `IMGPROXY_SKIP_PROCESSING_FORMATS`). Default: imgproxy's defaults.
    public var optionDefaults = ProcessingOptions()
    /// Which options URLs may use: the allowed options, only presets, the security options.
    public var optionRules = OptionRules()
    /// The default qualities and the encoders' settings.
    public var encoder = EncoderSettings()
    /// The image answered, processed with the request's options, when the source cannot be downloaded or is not an
    /// image the server reads (imgproxy's `IMGPROXY_FALLBACK_IMAGE_*`); `nil` (the default) answers the error.
    public var fallbackImage: FallbackImageConfiguration?
    /// The most connections served at once (imgproxy's `IMGPROXY_MAX_CLIENTS`); more wait to be accepted until one
    /// closes. Default 2048, as imgproxy's; 0 = no limit.
    public var maxClients = 2048
    /// Bind the TCP listener with `SO_REUSEPORT` (imgproxy's `IMGPROXY_SO_REUSEPORT`), so that several processes
    /// serve one port, through ``ImageServer/makeService(address:onServerRunning:)``. Default off; a Unix socket is
    /// bound as without it.
    public var reusesPort = false
    /// Render an SVG source to the negotiated or preferred format even when the URL names no format (imgproxy's
    /// `IMGPROXY_ALWAYS_RASTERIZE_SVG`). Default off: such a request is answered with the SVG itself, unresized.
    public var alwaysRasterizesSVG = false
    /// Sanitise an SVG answered as SVG: scripts, event attributes, unsafe links and forms removed (imgproxy's
    /// `IMGPROXY_SANITIZE_SVG`). Default on.
    public var sanitizesSVG = true
    /// The source formats whose loaders' own limits are lifted, as imgproxy's `IMGPROXY_PNG_UNLIMITED`,
    /// `IMGPROXY_SVG_UNLIMITED` and `IMGPROXY_TIFF_UNLIMITED` lift libvips' (`unlimited`): PNG, libspng's chunk
    /// limits (`PNGCoder.isUnlimited`); SVG, the 10 MiB document limit (`--max-src-file-size` then bounds it, up to
    /// 1 GiB; the element count and the render time stay bounded); TIFF, libtiff's allocation limit
    /// (`TIFFCoder.isUnlimited`). The resolution and frame limits apply either way. Default none, as imgproxy's;
    /// another format is a configuration error.
    public var unlimitedFormats: Set<ImageFormat> = []
    /// Which source addresses the loader may connect to, checked at every connection and redirect (the SSRF
    /// rules). Default: public addresses only.
    public var addressPolicy = SourceAddressPolicy.publicOnly
    /// The shared cache tier of a cluster (`--shared-store`): read after memory and disk, before the origin, for
    /// results and originals. `nil` for none.
    public var sharedStore: SharedStore?
    /// The HMAC key of `POST /admin/purge` signatures (`--purge-key`); `nil` leaves the route out (404).
    public var purgeKey: [UInt8]?
    /// The store `s3://bucket/key` sources are read from (`--s3-source-endpoint`); `nil` refuses them (404).
    public var s3Sources: S3Client?
    /// The buckets `s3://` sources may name (`--s3-allowed-buckets`, `--s3-denied-buckets`); another answers 404, as
    /// imgproxy answers it. Default: every bucket.
    public var s3SourceBuckets = S3BucketPolicy()
    /// The loaders of imgproxy's other object stores (`gs://`, `abs://`, `swift://`), each with the buckets it may
    /// read; a source of a scheme none loads, or in a bucket its loader refuses, answers 404 as imgproxy answers it.
    /// The server does not shut their stores down: their owner does. Default none.
    public var objectSources: [ObjectStoreImageLoader] = []
    /// Bucket names of `s3://` sources read through an access point (`IMGPROXY_S3_ACCESS_POINTS`): the name to the
    /// access point's ARN. Default: none.
    public var s3SourceAccessPoints: [String: String] = [:]
    /// Decrypts `s3://` sources written by the S3 Encryption Client (`IMGPROXY_S3_USE_DECRYPTION_CLIENT`); `nil`
    /// reads them as they are.
    public var s3SourceDecryption: S3DecryptionClient?
    /// The other nodes of the cluster (`--peer`), to which a purge is forwarded. With ``forwardsToOwner``, their
    /// `host:port` must be written as in the load balancer's `upstream` block.
    public var peers: [URL] = []
    /// This node's own URL as the load balancer and the peers name it (`--self`), with the path the server is mounted
    /// under; its `host:port` is this node's name on the ring of ``forwardsToOwner``.
    public var selfURL: URL?
    /// Forward a request whose result another node owns to that node (`--peer-forward`), on the ring of nginx's
    /// `hash $request_uri consistent` over ``selfURL`` and ``peers`` keyed by the result's canonical URL, so that each
    /// result is processed on one node however its URL is spelled. Needs ``selfURL`` and ``peers``; peers the same
    /// ``signer`` and presets. Default off.
    public var forwardsToOwner = false
    /// The watermark image the `watermark` option lays over results, and its base opacity (imgproxy's
    /// `IMGPROXY_WATERMARK_*`); `nil` (the default) for none, when the option changes nothing.
    public var watermark: WatermarkConfiguration?
    /// How the source part of a URL becomes the source URL (imgproxy's `IMGPROXY_BASE_URL`,
    /// `IMGPROXY_URL_REPLACEMENTS`, `IMGPROXY_BASE64_URL_INCLUDES_FILENAME`); the result is checked by
    /// ``allowedSources`` and ``addressPolicy`` as any source. Default: sources as given.
    public var sourceURLs = SourceURLRules()
    /// What separates an option's name and arguments in URLs and presets (imgproxy's `IMGPROXY_ARGUMENTS_SEPARATOR`),
    /// and in the canonical URLs the cluster forwards; not empty. Default `:`. With another, a `:` in an option is
    /// refused (404), since the canonical URL could not write it.
    public var argumentsSeparator = ":"
    /// Where the query of a `local://` or `s3://` source starts (imgproxy's `IMGPROXY_SOURCE_URL_QUERY_SEPARATOR`):
    /// the rest is not part of the file's path or the object's key. Empty: nowhere. Default `?`.
    public var sourceQuerySeparator = "?"
    /// How sources are fetched: the `User-Agent`, the keep-alive of connections to origins, certificate checks and
    /// the client's cookies passed on (imgproxy's fetcher and `cookies` settings).
    public var fetching = FetchSettings()
    /// How long a connection may take to send a request, to take a response and between requests (imgproxy's
    /// `IMGPROXY_READ_REQUEST_TIMEOUT`, `IMGPROXY_WRITE_RESPONSE_TIMEOUT`, `IMGPROXY_KEEP_ALIVE_TIMEOUT`), for
    /// ``ImageServer/makeApplication(address:onServerRunning:)``.
    public var connectionTimeouts = ConnectionTimeouts()
    /// Where the server logs.
    public var logger = Logger(label: "webimage.serve")
    /// Where the one line per image or `/info` request goes, called on the request's task as its response is
    /// returned; `nil` (the default) logs it through ``logger`` at `info`, as ``RequestLogEntry/metadata``. Set it to
    /// keep the line's formatting and writing off the request's path (`webimage serve` hands it to its log writer's
    /// thread); it is then called whatever ``logger``'s level.
    public var requestLog: (@Sendable (RequestLogEntry) -> Void)?
    /// The path every route of ``ImageServer/makeApplication(host:port:onServerRunning:)`` is served under, `/health`
    /// and `/metrics` included (imgproxy's `IMGPROXY_PATH_PREFIX`): empty (the default) or `/` and path segments, no
    /// trailing `/`, query or fragment.
    public var pathPrefix = ""
    /// The namespace every `/metrics` name starts with, followed by `_` (imgproxy's `IMGPROXY_PROMETHEUS_NAMESPACE`):
    /// a Prometheus name, letters, digits and `_`, not starting with a digit. Default empty: imgproxy's series are
    /// named as imgproxy names them without one (`requests_total`), the server's own start with `webimage_`.
    public var metricsNamespace = ""
    /// Record a span for each request and its stages (options, result cache, peer forward, source fetch, decode,
    /// each processing step, encode, result store) with the tracer bootstrapped in swift-distributed-tracing's
    /// `InstrumentationSystem`, and pass the request's trace context on to origins and peers (in the headers that
    /// tracer reads and writes: `webimage serve`'s OTLP tracer those of `OTEL_PROPAGATORS`, W3C `traceparent` by
    /// default).
    /// Default off: requests then pay nothing for tracing.
    public var tracesRequests = false
    /// Pass the request's trace context on to origins (imgproxy's `_PROPAGATE_EXTERNAL` variables), so an origin of
    /// your own can join the trace. Default off, as in imgproxy: a trace id is not sent to third parties. Peers of the
    /// cluster always get it, as every bootstrapped tracer writes it.
    public var propagatesTraceContextToOrigins = false
    /// What writes the trace headers into the requests to origins with ``propagatesTraceContextToOrigins``: `nil` (the
    /// default), the bootstrapped tracer. `webimage serve` gives a ``TracerSet`` of the tracers whose own
    /// `_PROPAGATE_EXTERNAL` is on, so each vendor's headers go to origins on its own switch, as in imgproxy.
    public var originTraceInstrument: (any Instrument)?
    /// A second metrics backend every metric of the server is also recorded into, under the same names and labels
    /// as on `/metrics` (`webimage serve` gives its OTLP exporter, `OTLPMetricsFactory`, here with imgproxy's
    /// `IMGPROXY_OPEN_TELEMETRY_ENABLE_METRICS`); `nil` (the default): `/metrics` only.
    public var metricsExporter: (any MetricsFactory)?
    /// Where imgproxy's gauges are reported every interval (CloudWatch, a DogStatsD agent), by the service of
    /// ``ImageServer/makeMonitoringService()``; nothing by default.
    public var monitoring = MonitoringConfiguration()
    /// At the end of ``ImageServer/shutdown()``, log what is still held (requests, images, processing and result runs)
    /// and the peak resident memory, as libvips' leak check does at its shutdown (imgproxy's
    /// `IMGPROXY_VIPS_LEAK_CHECK`). Default off.
    public var checksLeaks = false
    /// Log a line for each lookup, store and purge of the result tiers, as libvips traces its operation cache
    /// (imgproxy's `IMGPROXY_VIPS_CACHE_TRACE`). Default off.
    public var tracesCache = false
    /// Called once processing has been idle for a second (no run and no waiter), off the request path; `webimage serve`
    /// hands freed memory back to the system there. `nil`: nothing.
    public var whenIdle: (@Sendable () -> Void)?

    /// The defaults: no key, no presets, any http(s) source on a public address, in-memory caching.
    public init() {}

    /// The most bytes ``resultMemoryCacheSize`` may be: 64 GiB.
    public static let largestMemoryCache = 65_536 * 1024 * 1024

    /// Throws for the first setting outside its range: the limits, the memory cache, the TTL, the preferred formats,
    /// the watermark and the cluster settings that go together.
    public func validate() throws(ImageServerConfigurationError) {
        try limits.validate()
        try http.validate()
        try ImageServerConfigurationError.check(
            resultMemoryCacheSize, in: 0...Self.largestMemoryCache, "memory-cache-size",
            "must be between 0 and 65536 megabytes")
        try ImageServerConfigurationError.check(ttl, in: 0...Int.max, "ttl", "must be 0 or more")
        guard !preferredFormats.isEmpty else { throw ImageServerConfigurationError("preferred-formats", "is empty") }
        if let format = preferredFormats.first(where: { !FormatChoice.writable.contains($0) }) {
            throw ImageServerConfigurationError(
                "preferred-formats", "has \(format.name), which the server cannot write")
        }
        try watermark?.validate()
        try encoder.validate()
        if let format = unlimitedFormats.first(where: { ![.png, .svg, .tiff].contains($0) }) {
            throw ImageServerConfigurationError("unlimited", "\(format.name) has no loader limits to lift")
        }
        if !optionRules.allowsSecurityOptions, let name = presets.firstUsingSecurityOptions {
            throw ImageServerConfigurationError(
                "preset", "\(name) uses a security option, which needs --allow-security-options")
        }
        try fallbackImage?.validate()
        try connectionTimeouts.validate()
        guard !argumentsSeparator.isEmpty, !argumentsSeparator.contains("/") else {
            throw ImageServerConfigurationError("arguments-separator", "must be non-empty, without /")
        }
        try fetching.validate()
        try errorReporting.validate()
        try monitoring.validate()
        try ImageServerConfigurationError.check(maxClients, in: 0...1_000_000, "max-clients", "must be 0 or more")
        if forwardsToOwner, selfURL == nil || peers.isEmpty {
            throw ImageServerConfigurationError("peer-forward", "needs --self and at least one --peer")
        }
        let prefixIsPath =
            pathPrefix.isEmpty
            || (pathPrefix.hasPrefix("/") && !pathPrefix.hasSuffix("/") && pathPrefix.count <= 1024
                && !pathPrefix.contains { $0 == "?" || $0 == "#" || $0.isWhitespace || $0 == "*" || $0 == ":" })
        guard prefixIsPath else {
            throw ImageServerConfigurationError(
                "path-prefix", "must be empty or /SEGMENT[/SEGMENT...] without a trailing /")
        }
        let nameCharacters = metricsNamespace.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
        guard nameCharacters, metricsNamespace.first?.isNumber != true, metricsNamespace.count <= 64 else {
            throw ImageServerConfigurationError(
                "metrics-namespace", "must be letters, digits and _, not starting with a digit")
        }
    }

    /// The format imgproxy's name `name` stands for (`jpg`, `jpeg`, `png`, `webp`, `avif`, `gif`, `heic`, `svg`…),
    /// whether the server writes it or not; `nil` for a name imgproxy does not know.
    public static func format(named name: String) -> ImageFormat? { OutputFormat.byName[name.lowercased()] }

    /// The format imgproxy's name `name` stands for (`jpg`, `jpeg`, `png`, `webp`, `avif`, `jxl`, …), when the server
    /// can write it; `nil` otherwise.
    public static func writableFormat(named name: String) -> ImageFormat? {
        OutputFormat.byName[name.lowercased()].flatMap { FormatChoice.writable.contains($0) ? $0 : nil }
    }
}
