import ArgumentParser
import Foundation
import Hummingbird
import ServiceLifecycle
import WebImage
import WebImageServer
import WebImageStores

/// `webimage serve`: the imgproxy-compatible image server.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run an imgproxy-compatible image server (resize, crop and re-encode images on the fly).",
        discussion: """
            URLs have imgproxy's format: /SIGNATURE/OPTIONS/plain/PERCENT-ENCODED-URL[@EXT] or \
            /SIGNATURE/OPTIONS/BASE64URL-URL[.EXT]. With --key and --salt the signature must be the URL-safe \
            base64 of HMAC-SHA256(key, salt + path); without them any signature (e.g. `insecure`) is accepted. \
            GET /health answers 200, GET /metrics gives Prometheus metrics, each image request logs one line. At most \
            --workers images are processed at once; --queue-size more wait up to --queue-timeout; beyond either \
            the server answers 503 with Retry-After. SIGTERM or SIGINT stops accepting connections, lets requests in \
            flight finish within --shutdown-timeout, writes pending cache entries and exits 0. A bad configuration \
            exits 64 at once. Prints `listening on http://HOST:PORT` (`unix:PATH` for a socket) once it accepts \
            connections.

            Every option can also come from the environment: WEBIMAGE_<FLAG> (--max-src-file-size: \
            WEBIMAGE_MAX_SRC_FILE_SIZE; --peer: WEBIMAGE_PEERS; lists comma-separated; booleans 1/true/yes/on), \
            and most from imgproxy's own variables in imgproxy's syntax (IMGPROXY_KEY, IMGPROXY_BIND, \
            IMGPROXY_TTL, IMGPROXY_PRESETS...; README.md lists them). A flag wins over WEBIMAGE_, which wins over \
            IMGPROXY_. IMGPROXY_ variables that are not supported are named in one warning at start. S3 credentials \
            come from the environment and the AWS tools' files, never from flags: WEBIMAGE_S3_ACCESS_KEY/\
            WEBIMAGE_S3_SECRET_KEY (shared store) or WEBIMAGE_S3_SOURCE_ACCESS_KEY/WEBIMAGE_S3_SOURCE_SECRET_KEY \
            (sources), then AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY/AWS_SESSION_TOKEN, then the profile AWS_PROFILE \
            in ~/.aws/credentials, then in ~/.aws/config (README.md, "S3 credentials"). gs://, abs:// and \
            swift:// sources are configured by imgproxy's variables only (IMGPROXY_USE_GCS, IMGPROXY_GCS_KEY, \
            IMGPROXY_USE_ABS, IMGPROXY_ABS_KEY, IMGPROXY_USE_SWIFT, IMGPROXY_SWIFT_API_KEY...; README.md, "Google \
            Cloud Storage, Azure Blob Storage and OpenStack Swift sources").

            Examples:
              webimage serve --key 943b…0881 --salt 520f…09c5 --cache-dir /var/cache/webimage
              WEBIMAGE_PORT=0 webimage serve --preset thumb=rs:fill:200:200
            """)

    @Option(help: "The address to bind (default: 127.0.0.1; IMGPROXY_BIND's host, where empty is every interface).")
    var host: String?
    @Option(help: "The port to bind; 0 picks a free one (default: 8080; IMGPROXY_BIND's port).")
    var port: Int?
    @Option(help: "The signing keys, hexadecimal, comma-separated: any one's signature is accepted (IMGPROXY_KEY).")
    var key: String?
    @Option(help: "The signing salts, hexadecimal, comma-separated, one per key (IMGPROXY_SALT).")
    var salt: String?
    @Option(help: "The bytes of the HMAC a signature keeps, 1 to 32 (default: 32; IMGPROXY_SIGNATURE_SIZE).")
    var signatureSize: Int?
    @Option(
        help: ArgumentHelp(
            "Signatures accepted without a check, comma-separated (IMGPROXY_TRUSTED_SIGNATURES).", valueName: "SIG,...")
    )
    var trustedSignatures: String?
    @Option(help: "Image requests must carry `Authorization: Bearer SECRET`, else 403 (IMGPROXY_SECRET).")
    var secret: String?
    @Option(
        help: ArgumentHelp(
            "CORS: send Access-Control-Allow-Origin with this value (IMGPROXY_ALLOW_ORIGIN).", valueName: "ORIGIN"))
    var allowOrigin: String?
    @Option(help: "debug, info, warn or error (default: info; IMGPROXY_LOG_LEVEL).")
    var logLevel: String?
    @Option(help: "Cache originals and results on disk here.")
    var cacheDir: String?
    @Flag(help: "Cache nothing.")
    var noCache = false
    @Option(
        help: ArgumentHelp(
            "A preset, NAME=OPTIONS (repeatable); `default` applies to every request (IMGPROXY_PRESETS).",
            valueName: "NAME=OPTIONS"))
    var preset: [String] = []
    @Option(
        help: ArgumentHelp(
            "Read presets from this file, one NAME=OPTIONS a line (IMGPROXY_PRESETS_PATH).", valueName: "FILE"))
    var presetsFile: String?
    @Flag(help: "Do not cache processed results (originals are still cached).")
    var noResultCache = false
    @Option(
        help:
            "Megabytes of encoded results kept in memory in front of the disk cache; 0 keeps none \(Self.memoryDefault)."
    )
    var memoryCacheSize: Int?
    @Option(help: "How many images are processed at once (default: the number of cores; IMGPROXY_WORKERS).")
    var workers: Int?
    @Option(
        help:
            "How many more requests may wait for a processing slot (503 beyond) \(Self.limitsDefault(\.processingQueue))."
    )
    var queueSize: Int?
    @Option(help: "Seconds a request may wait for a processing slot (503 after) \(Self.seconds(\.queueTimeout)).")
    var queueTimeout: Double?
    @Option(help: "glibc's allocator settings: tuned (fewer arenas, higher trim and mmap thresholds) or glibc.")
    var malloc: MemoryAllocator?
    @Option(
        help: ArgumentHelp(
            "Set the KEY=value lines of this file in the environment first, over the variables already set "
                + "(IMGPROXY_ENV_LOCAL_FILE_PATH).", valueName: "FILE"))
    var envLocalFilePath: String?
    @Option(help: "Seconds requests in flight may take to finish after SIGTERM (default: 10).")
    var shutdownTimeout: Double?
    @Option(
        help: ArgumentHelp(
            "Only sources starting with one of these prefixes, where * matches anything but / (repeatable).",
            valueName: "PREFIX"))
    var allowedSources: [String] = []
    @Option(help: "Serve local:///PATH sources from this directory (never outside it).")
    var localRoot: String?
    @Option(help: "The most source megapixels, width x height x frames \(Self.megapixelsDefault).")
    var maxSrcResolution: Double?
    @Option(help: "The largest source file in bytes \(Self.limitsDefault(\.maxSourceFileSize)).")
    var maxSrcFileSize: Int?
    @Option(
        help: "The most animation frames kept (later frames are dropped) \(Self.limitsDefault(\.maxAnimationFrames)).")
    var maxAnimationFrames: Int?
    @Option(
        help:
            "The longest side of a result in pixels; larger results are scaled down \(Self.limitsDefault(\.maxResultDimension))."
    )
    var maxResultDimension: Int?
    @Option(help: "The most redirects followed to a source; 0 follows none \(Self.limitsDefault(\.maxRedirects)).")
    var maxRedirects: Int?
    @Option(help: "Seconds a source download may take \(Self.seconds(\.downloadTimeout)).")
    var downloadTimeout: Double?
    @Option(help: "Seconds a whole request may take (503 after) \(Self.seconds(\.requestTimeout)).")
    var timeout: Double?
    @Option(help: "Cache-Control max-age of results, in seconds (default: \(ImageServerConfiguration().ttl)).")
    var ttl: Int?
    @Flag(
        inversion: .prefixedNo,
        help: "Answer WebP when the client accepts it and the URL names no format (default: off, as imgproxy).")
    var autoWebp: Bool?
    @Flag(
        inversion: .prefixedNo,
        help: "Answer AVIF when the client accepts it and the URL names no format (default: off).")
    var autoAvif: Bool?
    @Option(
        help: ArgumentHelp(
            "Without a format in the URL, keep the source's format if listed, else pick the first that fits.",
            valueName: "jpeg,png,gif"))
    var preferredFormats: String?
    @Flag(help: "Allow sources on loopback addresses (127.0.0.0/8, ::1).")
    var allowLoopbackSources = false
    @Flag(help: "Allow sources on private addresses (RFC 1918, CGNAT, fc00::/7).")
    var allowPrivateSources = false
    @Flag(help: "Allow sources on link-local addresses (169.254.0.0/16, fe80::/10, cloud metadata).")
    var allowLinkLocalSources = false
    @OptionGroup(title: "Cluster")
    var cluster: ClusterOptions
    @OptionGroup(title: "Watermark")
    var watermark: WatermarkOptions
    @OptionGroup(title: "Encoding and option defaults")
    var encoding: EncoderOptions
    @OptionGroup(title: "URL rules, fallback image, clients and logs")
    var parity: ParityOptions
    @OptionGroup(title: "Info")
    var info: InfoServeOptions
    @OptionGroup(title: "Formats")
    var formats: FormatOptions
    @OptionGroup(title: "SVG")
    var svg: SVGOptions
    @OptionGroup(title: "Pixels")
    var pixels: PixelOptions
    @OptionGroup(title: "Metrics and tracing")
    var telemetry: TelemetryOptions
    @OptionGroup(title: "Datadog and CloudWatch")
    var monitoring: MonitoringOptions
    @OptionGroup(title: "Syslog")
    var syslog: SyslogOptions
    @OptionGroup(title: "Error reporting")
    var reporting: ReportingOptions
    @OptionGroup(title: "HTTP: Server header, health check, validators")
    var http: HTTPOptions
    @OptionGroup(title: "Listener")
    var listener: ListenerOptions
    @OptionGroup(title: "Fetching")
    var fetching: FetchingOptions
    @OptionGroup(title: "Source URLs")
    var urls: URLOptions
    @OptionGroup(title: "Memory")
    var memory: MemoryOptions

    func run() async throws {
        // Request lines wait in the log writer for its thread; none is left unwritten at exit.
        defer { LogLineWriter.standardError.flush() }
        // As imgproxy's `env.Load`, before any setting is read: the AWS secret's and SSM parameters' variables, then the
        // GCP secret's, stand for the environment's (the local file's follow, in `makeSetup`).
        _ = try await Settings.loadAWSEnvironment()
        try await Settings.loadGCPSecret()
        let setup = try makeSetup()
        var configuration = setup.configuration
        let server: ImageServer
        let metricsAddress: BindAddress?
        let exporter: TelemetryOptions.Export?
        let tracers: ServeTracers
        let ticker: MemoryTicker
        do {
            try await Self.signInToStores(configuration)
            metricsAddress = try telemetry.metricsAddress()
            // Before the server makes its HTTP clients, which take the tracer there is when they are made.
            exporter = try telemetry.export(environment: ProcessInfo.processInfo.environment)
            if let exporter { TelemetryOptions.apply(exporter, to: &configuration) }
            var enabled = try monitoring.tracers(for: configuration)
            if let exporter {
                enabled.members.append(
                    .init(tracer: exporter.tracer, propagatesToOrigins: try telemetry.propagatesToOrigins()))
            }
            enabled.bootstrap(into: &configuration)
            tracers = enabled
            ticker = try memory.ticker(logger: configuration.logger)
            setup.allocator.configure(cores: ProcessInfo.processInfo.activeProcessorCount)
            if let shared = configuration.sharedStore, await shared.bucketExists() != true {
                configuration.logger.warning(
                    "the shared store's bucket is missing or unreachable; results and originals are not shared",
                    metadata: ["store": "\(shared.location)"])
            }
            do {
                server = try ImageServer(configuration: configuration)
                // As imgproxy, the watermark and fallback images named by URL are fetched now: a failure stops the
                // start.
                try await server.prepare()
            } catch { throw ValidationError(error.description) }
        } catch {
            // The stores' HTTP clients must be shut down before they go, or their deinit traps.
            await Self.shutDownStores(of: configuration)
            throw error
        }
        let gracePeriod = Self.duration(setup.shutdownTimeout)
        let app = server.makeService(address: setup.address) { bound in
            FileHandle.standardOutput.write(Data("listening on \(bound)\n".utf8))
        }
        // Past the grace period the server is cancelled; 2 s later the process exits whatever is left
        // (ShutdownDeadline), rather than through ServiceGroup's cancellation timeout, which traps.
        let deadline = ShutdownDeadline(deadline: gracePeriod + .seconds(2), logger: configuration.logger)
        let metricsApp = metricsAddress.map { address in
            ServiceGroupConfiguration.ServiceConfiguration(
                service: server.makeMetricsApplication(host: address.host, port: address.port))
        }
        // Services stop in reverse order: the exporter last, so the spans of the last requests are sent.
        let exporters = ([exporter?.service] + tracers.services + [server.makeMonitoringService()]).compactMap { $0 }
        var group = ServiceGroupConfiguration(
            services: exporters.map { .init(service: $0) } + [.init(service: app)]
                + (metricsApp.map { [$0] } ?? [])
                + [
                    .init(service: deadline, successTerminationBehavior: .ignore),
                    .init(service: ticker, successTerminationBehavior: .ignore),
                ],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: configuration.logger)
        group.maximumGracefulShutdownDuration = gracePeriod
        group.maximumCancellationDuration = nil
        var failure: (any Error)?
        do { try await ServiceGroup(configuration: group).run() } catch { failure = error }
        await server.shutdown()
        await Self.shutDownStores(of: configuration)
        if let failure { throw failure }
    }

    /// `(default: N)` for a limit.
    private static func limitsDefault(_ limit: KeyPath<ServerLimits, Int>) -> String {
        "(default: \(ServerLimits()[keyPath: limit]))"
    }

    /// `(default: N)` for a timeout, in seconds.
    private static func seconds(_ limit: KeyPath<ServerLimits, Duration>) -> String {
        "(default: \(ServerLimits()[keyPath: limit].components.seconds))"
    }

    private static var megapixelsDefault: String { "(default: \(ServerLimits().maxSourceResolution / 1_000_000))" }

    private static var memoryDefault: String { "(default: \(ImageServerConfiguration().resultMemoryCacheSize >> 20))" }
}
