import ArgumentParser
import Foundation
import Hummingbird
import ServiceLifecycle
import WebImage
import WebImageServer

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
            exits 64 at once. Prints `listening on http://HOST:PORT` once it accepts connections.

            Every option can also come from the environment: WEBIMAGE_HOST, WEBIMAGE_PORT, WEBIMAGE_KEY, \
            WEBIMAGE_SALT, WEBIMAGE_CACHE_DIR, WEBIMAGE_NO_CACHE, WEBIMAGE_PRESET (comma-separated), \
            WEBIMAGE_ALLOWED_SOURCES (comma-separated), WEBIMAGE_LOCAL_ROOT, WEBIMAGE_MAX_SRC_RESOLUTION, \
            WEBIMAGE_MAX_SRC_FILE_SIZE, WEBIMAGE_MAX_ANIMATION_FRAMES, WEBIMAGE_MAX_RESULT_DIMENSION, \
            WEBIMAGE_DOWNLOAD_TIMEOUT, WEBIMAGE_TIMEOUT, WEBIMAGE_TTL, WEBIMAGE_AUTO_WEBP, WEBIMAGE_AUTO_AVIF, \
            WEBIMAGE_PREFERRED_FORMATS (comma-separated), WEBIMAGE_PRESETS_FILE, WEBIMAGE_NO_RESULT_CACHE, \
            WEBIMAGE_MEMORY_CACHE_SIZE, WEBIMAGE_WORKERS, \
            WEBIMAGE_QUEUE_SIZE, WEBIMAGE_QUEUE_TIMEOUT, WEBIMAGE_SHUTDOWN_TIMEOUT, WEBIMAGE_MALLOC, \
            WEBIMAGE_ALLOW_LOOPBACK_SOURCES, WEBIMAGE_ALLOW_PRIVATE_SOURCES, WEBIMAGE_ALLOW_LINK_LOCAL_SOURCES, \
            and for a cluster WEBIMAGE_SHARED_STORE, WEBIMAGE_SHARED_STORE_ENDPOINT, WEBIMAGE_SHARED_STORE_REGION, \
            WEBIMAGE_SHARED_STORE_TIMEOUT, WEBIMAGE_PURGE_KEY, WEBIMAGE_PEERS (comma-separated), WEBIMAGE_SELF, \
            WEBIMAGE_PEER_FORWARD, WEBIMAGE_S3_SOURCE_ENDPOINT, WEBIMAGE_S3_SOURCE_REGION (booleans: 1/true/yes). S3 \
            credentials come only from WEBIMAGE_S3_ACCESS_KEY/WEBIMAGE_S3_SECRET_KEY (shared store) and \
            WEBIMAGE_S3_SOURCE_ACCESS_KEY/WEBIMAGE_S3_SOURCE_SECRET_KEY. A flag on the command line wins over the \
            environment.

            Examples:
              webimage serve --key 943b…0881 --salt 520f…09c5 --cache-dir /var/cache/webimage
              WEBIMAGE_PORT=0 webimage serve --preset thumb=rs:fill:200:200
            """)

    @Option(help: "The address to bind.")
    var host = Env.string("HOST") ?? "127.0.0.1"
    @Option(help: "The port to bind; 0 picks a free one.")
    var port = Env.int("PORT") ?? 8080
    @Option(help: "The signing keys, hexadecimal, comma-separated: any one's signature is accepted (IMGPROXY_KEY).")
    var key: String?
    @Option(help: "The signing salts, hexadecimal, comma-separated, one per key (IMGPROXY_SALT).")
    var salt: String?
    @Option(help: "The bytes of the HMAC a signature keeps, 1 to 32 (default: 32; IMGPROXY_SIGNATURE_SIZE).")
    var signatureSize: Int?
    @Option(help: ArgumentHelp("Signatures accepted without a check, comma-separated.", valueName: "SIG,..."))
    var trustedSignatures: String?
    @Option(help: "Cache originals and results on disk here.")
    var cacheDir: String?
    @Flag(help: "Cache nothing.")
    var noCache = false
    @Option(
        help: ArgumentHelp(
            "A preset, NAME=OPTIONS (repeatable); `default` applies to every request.", valueName: "NAME=OPTIONS"))
    var preset: [String] = Env.list("PRESET")
    @Option(help: ArgumentHelp("Read presets from this file, one NAME=OPTIONS a line.", valueName: "FILE"))
    var presetsFile: String?
    @Flag(help: "Do not cache processed results (originals are still cached).")
    var noResultCache = false
    @Option(
        help:
            "Megabytes of encoded results kept in memory in front of the disk cache; 0 keeps none \(Self.memoryDefault)."
    )
    var memoryCacheSize: Int?
    @Option(help: "How many images are processed at once (default: the number of cores).")
    var workers: Int?
    @Option(
        help:
            "How many more requests may wait for a processing slot (503 beyond) \(Self.limitsDefault(\.processingQueue))."
    )
    var queueSize: Int?
    @Option(help: "Seconds a request may wait for a processing slot (503 after) \(Self.seconds(\.queueTimeout)).")
    var queueTimeout: Double?
    @Option(help: "glibc's allocator settings: tuned (fewer arenas, higher trim and mmap thresholds) or glibc.")
    var malloc = Env.string("MALLOC").flatMap(MemoryAllocator.init(rawValue:)) ?? .tuned
    @Option(help: "Seconds requests in flight may take to finish after SIGTERM.")
    var shutdownTimeout = Env.double("SHUTDOWN_TIMEOUT") ?? 10
    @Option(help: ArgumentHelp("Only sources starting with one of these prefixes (repeatable).", valueName: "PREFIX"))
    var allowedSources: [String] = Env.list("ALLOWED_SOURCES")
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
    @Option(help: "Seconds a source download may take \(Self.seconds(\.downloadTimeout)).")
    var downloadTimeout: Double?
    @Option(help: "Seconds a whole request may take (503 after) \(Self.seconds(\.requestTimeout)).")
    var timeout: Double?
    @Option(help: "Cache-Control max-age of results, in seconds (default: \(ImageServerConfiguration().ttl)).")
    var ttl: Int?
    @Flag(inversion: .prefixedNo, help: "Answer WebP when the client accepts it and the URL names no format.")
    var autoWebp = Env.bool("AUTO_WEBP") ?? true
    @Flag(inversion: .prefixedNo, help: "Answer AVIF when the client accepts it and the URL names no format.")
    var autoAvif = Env.bool("AUTO_AVIF") ?? false
    @Option(
        help: ArgumentHelp(
            "Without a format in the URL, keep the source's format if listed, else pick the first that fits.",
            valueName: "jpeg,png,gif"))
    var preferredFormats = Env.string("PREFERRED_FORMATS") ?? "jpeg,png,gif"
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

    func run() async throws {
        let configuration = try makeConfiguration()
        guard shutdownTimeout.isFinite, shutdownTimeout > 0, shutdownTimeout <= 86_400 else {
            throw ValidationError("--shutdown-timeout must be between 0 and 86400 seconds")
        }
        let gracePeriod = Self.duration(shutdownTimeout)
        malloc.configure(cores: ProcessInfo.processInfo.activeProcessorCount)
        if let shared = configuration.sharedStore, await shared.bucketExists() != true {
            configuration.logger.warning(
                "the shared store's bucket is missing or unreachable; results and originals are not shared",
                metadata: ["store": "\(shared.location)"])
        }
        let server: ImageServer
        do { server = try ImageServer(configuration: configuration) } catch { throw ValidationError(error.description) }
        let host = host
        let app = server.makeApplication(host: host, port: port) { port in
            FileHandle.standardOutput.write(Data("listening on http://\(host):\(port)\n".utf8))
        }
        // Past the grace period the server is cancelled; 2 s later the process exits whatever is left
        // (ShutdownDeadline), rather than through ServiceGroup's cancellation timeout, which traps.
        let deadline = ShutdownDeadline(deadline: gracePeriod + .seconds(2), logger: configuration.logger)
        var group = ServiceGroupConfiguration(
            services: [.init(service: app), .init(service: deadline, successTerminationBehavior: .ignore)],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: configuration.logger)
        group.maximumGracefulShutdownDuration = gracePeriod
        group.maximumCancellationDuration = nil
        var failure: (any Error)?
        do { try await ServiceGroup(configuration: group).run() } catch { failure = error }
        await server.shutdown()
        // The S3 clients were made here, for the configuration; the server leaves them to us.
        try? await configuration.sharedStore?.client.shutdown()
        try? await configuration.s3Sources?.shutdown()
        if let failure { throw failure }
    }

    func makeConfiguration() throws -> ImageServerConfiguration {
        try Env.validate()
        var configuration = ImageServerConfiguration()
        configuration.signer = try makeSigner()
        var definitions = preset
        if let path = presetsFile ?? Env.string("PRESETS_FILE") {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw ValidationError("--presets-file: cannot read \(path)")
            }
            definitions += text.split(whereSeparator: \.isNewline).map(String.init)
        }
        do {
            configuration.presets = try Presets(definitions: definitions)
        } catch {
            throw ValidationError("--preset: \(error.message)")
        }
        configuration.allowedSources = allowedSources
        configuration.localRoot = try Self.directory(localRoot ?? Env.string("LOCAL_ROOT"), "--local-root")
        configuration.cacheDirectory = try Self.directory(
            cacheDir ?? Env.string("CACHE_DIR"), "--cache-dir", creating: true)
        configuration.cachesResults = !(noCache || Env.bool("NO_CACHE") == true)
        configuration.cachesProcessedResults = !(noResultCache || Env.bool("NO_RESULT_CACHE") == true)
        if let megabytes = memoryCacheSize ?? Env.int("MEMORY_CACHE_SIZE") {
            configuration.resultMemoryCacheSize = Self.saturating(Double(megabytes) * 1024 * 1024)
        }
        configuration.limits = makeLimits()
        if let ttl = ttl ?? Env.int("TTL") { configuration.ttl = ttl }
        configuration.autoWebP = autoWebp
        configuration.autoAVIF = autoAvif
        configuration.preferredFormats = try preferredFormats.split(separator: ",").map { name in
            guard let format = ImageServerConfiguration.writableFormat(named: String(name)) else {
                throw ValidationError("--preferred-formats: '\(name)' is not jpeg, png, webp, avif or gif")
            }
            return format
        }
        configuration.addressPolicy = SourceAddressPolicy(
            allowsLoopback: allowLoopbackSources || Env.bool("ALLOW_LOOPBACK_SOURCES") == true,
            allowsPrivate: allowPrivateSources || Env.bool("ALLOW_PRIVATE_SOURCES") == true,
            allowsLinkLocal: allowLinkLocalSources || Env.bool("ALLOW_LINK_LOCAL_SOURCES") == true)
        try cluster.apply(to: &configuration)
        try watermark.apply(to: &configuration)
        configuration.whenIdle = { MemoryAllocator.releaseFreeMemory() }
        do { try configuration.validate() } catch { throw ValidationError(error.description) }
        return configuration
    }

    /// The signer of `--key` and `--salt` (comma-separated lists, paired in order), `--signature-size` and
    /// `--trusted-signatures`; `nil` without keys.
    private func makeSigner() throws -> URLSigner? {
        func list(_ text: String) -> [String] {
            text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        switch (key ?? Env.string("KEY"), salt ?? Env.string("SALT")) {
        case (nil, nil): return nil
        case (let keys?, let salts?):
            let (keys, salts) = (list(keys), list(salts))
            guard keys.count == salts.count else {
                throw ValidationError("--key and --salt must list as many salts as keys")
            }
            let size = signatureSize ?? Env.int("SIGNATURE_SIZE") ?? URLSigner.fullSignatureSize
            guard (1...URLSigner.fullSignatureSize).contains(size) else {
                throw ValidationError("--signature-size must be between 1 and 32")
            }
            let trusted = Set(list(trustedSignatures ?? Env.string("TRUSTED_SIGNATURES") ?? ""))
            guard
                let signer = URLSigner(hexKeys: keys, hexSalts: salts, signatureSize: size, trustedSignatures: trusted)
            else { throw ValidationError("--key and --salt must be non-empty hexadecimal") }
            return signer
        default: throw ValidationError("--key and --salt go together")
        }
    }

    /// The limits given by flags or the environment, over the library's defaults; the library checks their ranges.
    private func makeLimits() -> ServerLimits {
        var limits = ServerLimits()
        if let megapixels = maxSrcResolution ?? Env.double("MAX_SRC_RESOLUTION") {
            limits.maxSourceResolution = Self.saturating(megapixels * 1_000_000)
        }
        if let bytes = maxSrcFileSize ?? Env.int("MAX_SRC_FILE_SIZE") { limits.maxSourceFileSize = bytes }
        if let frames = maxAnimationFrames ?? Env.int("MAX_ANIMATION_FRAMES") { limits.maxAnimationFrames = frames }
        if let side = maxResultDimension ?? Env.int("MAX_RESULT_DIMENSION") { limits.maxResultDimension = side }
        if let seconds = downloadTimeout ?? Env.double("DOWNLOAD_TIMEOUT") {
            limits.downloadTimeout = Self.duration(seconds)
        }
        if let seconds = timeout ?? Env.double("TIMEOUT") { limits.requestTimeout = Self.duration(seconds) }
        if let count = workers ?? Env.int("WORKERS") { limits.processingSlots = count }
        if let count = queueSize ?? Env.int("QUEUE_SIZE") { limits.processingQueue = count }
        if let seconds = queueTimeout ?? Env.double("QUEUE_TIMEOUT") { limits.queueTimeout = Self.duration(seconds) }
        return limits
    }

    /// A directory option's URL, checked at start: it must be a directory (`creating` makes it first when missing)
    /// and, when created by us, writable.
    private static func directory(_ path: String?, _ name: String, creating: Bool = false) throws -> URL? {
        guard let path else { return nil }
        let url = URL(fileURLWithPath: path, isDirectory: true)
        if creating { try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ValidationError("\(name): \(path) is not a directory")
        }
        guard !creating || FileManager.default.isWritableFile(atPath: url.path) else {
            throw ValidationError("\(name): \(path) is not writable")
        }
        return url
    }

    /// `seconds` as a duration, rounded up to the millisecond; out-of-range values stay out of range (NaN is 0), for
    /// the library's check to name.
    private static func duration(_ seconds: Double) -> Duration {
        .milliseconds(Int64(clamping: saturating((seconds * 1000).rounded(.up))))
    }

    /// `value` as an integer, clamped to `Int`'s range (NaN is 0), so that no flag can trap a conversion.
    private static func saturating(_ value: Double) -> Int {
        guard !value.isNaN else { return 0 }
        return value >= 0x1p63 ? .max : value <= -0x1p63 ? .min : Int(value)
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
