import Logging
import WebImageStores

/// The table of `webimage serve`'s settings: each flag with its `WEBIMAGE_` variable and imgproxy's variables, in
/// imgproxy's syntax (comma lists, `true`/`false`, seconds, megapixels as a decimal number). A flag wins over
/// `WEBIMAGE_`, which wins over imgproxy's.
///
/// Where imgproxy gives a value a meaning ours lacks, its parser says what it is here: `IMGPROXY_MAX_SRC_FILE_SIZE=0`
/// and `IMGPROXY_REQUESTS_QUEUE_SIZE=0` (no limit) become the largest limit.
enum Settings {
    // Server
    static let host = Setting<String>(
        "host", .text, imgproxy: ["IMGPROXY_BIND"], imgproxyParser: BindAddress.imgproxyParser.map { $0.host })
    static let port = Setting<Int>(
        "port", .integer, imgproxy: ["IMGPROXY_BIND"], imgproxyParser: BindAddress.imgproxyParser.map { $0.port })
    static let secret = Setting<String>("secret", .text, imgproxy: ["IMGPROXY_SECRET"])
    static let allowOrigin = Setting<String>("allow-origin", .text, imgproxy: ["IMGPROXY_ALLOW_ORIGIN"])
    static let logLevel = Setting<Logger.Level>("log-level", .logLevel, imgproxy: ["IMGPROXY_LOG_LEVEL"])
    static let ttl = Setting<Int>("ttl", .integer, imgproxy: ["IMGPROXY_TTL"])
    static let workers = Setting<Int>("workers", .integer, imgproxy: ["IMGPROXY_WORKERS", "IMGPROXY_CONCURRENCY"])
    static let queueSize = Setting<Int>(
        "queue-size", .integer, imgproxy: ["IMGPROXY_REQUESTS_QUEUE_SIZE"],
        imgproxyParser: ValueParser<Int>.integer.map { $0 == 0 ? 1_000_000 : $0 })
    static let queueTimeout = Setting<Double>("queue-timeout", .number)
    static let timeout = Setting<Double>("timeout", .number, imgproxy: ["IMGPROXY_TIMEOUT", "IMGPROXY_WRITE_TIMEOUT"])
    static let shutdownTimeout = Setting<Double>(
        "shutdown-timeout", .number, imgproxy: ["IMGPROXY_GRACEFUL_STOP_TIMEOUT"])
    static let malloc = Setting<MemoryAllocator>("malloc", .allocator)

    // Signatures
    static let key = Setting<String>("key", .text, imgproxy: ["IMGPROXY_KEY"])
    static let salt = Setting<String>("salt", .text, imgproxy: ["IMGPROXY_SALT"])
    static let signatureSize = Setting<Int>("signature-size", .integer, imgproxy: ["IMGPROXY_SIGNATURE_SIZE"])
    static let trustedSignatures = Setting<String>(
        "trusted-signatures", .text, imgproxy: ["IMGPROXY_TRUSTED_SIGNATURES"])

    // Sources and limits
    static let allowedSources = Setting<[String]>("allowed-sources", .list(), imgproxy: ["IMGPROXY_ALLOWED_SOURCES"])
    static let localRoot = Setting<String>("local-root", .text, imgproxy: ["IMGPROXY_LOCAL_FILESYSTEM_ROOT"])
    static let maxSrcResolution = Setting<Double>(
        "max-src-resolution", .number, imgproxy: ["IMGPROXY_MAX_SRC_RESOLUTION"])
    static let maxSrcFileSize = Setting<Int>(
        "max-src-file-size", .integer, imgproxy: ["IMGPROXY_MAX_SRC_FILE_SIZE"],
        imgproxyParser: ValueParser<Int>.integer.map { $0 == 0 ? Int.max : $0 })
    static let maxAnimationFrames = Setting<Int>(
        "max-animation-frames", .integer, imgproxy: ["IMGPROXY_MAX_ANIMATION_FRAMES"])
    static let maxResultDimension = Setting<Int>(
        "max-result-dimension", .integer, imgproxy: ["IMGPROXY_MAX_RESULT_DIMENSION"])
    static let maxRedirects = Setting<Int>("max-redirects", .integer, imgproxy: ["IMGPROXY_MAX_REDIRECTS"])
    static let downloadTimeout = Setting<Double>("download-timeout", .number, imgproxy: ["IMGPROXY_DOWNLOAD_TIMEOUT"])
    static let allowLoopbackSources = Setting<Bool>(
        "allow-loopback-sources", .boolean, imgproxy: ["IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES"])
    static let allowPrivateSources = Setting<Bool>(
        "allow-private-sources", .boolean, imgproxy: ["IMGPROXY_ALLOW_PRIVATE_SOURCE_ADDRESSES"])
    static let allowLinkLocalSources = Setting<Bool>(
        "allow-link-local-sources", .boolean, imgproxy: ["IMGPROXY_ALLOW_LINK_LOCAL_SOURCE_ADDRESSES"])

    // Presets and formats
    static let preset = Setting<[String]>(
        "preset", .list(), imgproxy: ["IMGPROXY_PRESETS"],
        imgproxyParser: .list(separatedBy: Env.value(presetsSeparator) ?? ","))
    static let presetsFile = Setting<String>("presets-file", .text, imgproxy: ["IMGPROXY_PRESETS_PATH"])
    static let autoWebP = Setting<Bool>(
        "auto-webp", .boolean, imgproxy: ["IMGPROXY_AUTO_WEBP", "IMGPROXY_ENABLE_WEBP_DETECTION"])
    static let autoAVIF = Setting<Bool>(
        "auto-avif", .boolean, imgproxy: ["IMGPROXY_AUTO_AVIF", "IMGPROXY_ENABLE_AVIF_DETECTION"])
    static let preferredFormats = Setting<[String]>(
        "preferred-formats", .list(), imgproxy: ["IMGPROXY_PREFERRED_FORMATS"])

    // Caches
    static let cacheDir = Setting<String>("cache-dir", .text)
    static let noCache = Setting<Bool>("no-cache", .boolean)
    static let noResultCache = Setting<Bool>("no-result-cache", .boolean)
    static let memoryCacheSize = Setting<Int>("memory-cache-size", .integer)

    // S3 sources (imgproxy's `IMGPROXY_USE_S3`) and the cluster; the AWS tools' variables and files are read by
    // `S3Environment`, after these.
    static let useS3 = Setting<Bool>("use-s3", .boolean, imgproxy: ["IMGPROXY_USE_S3"])
    static let s3SourceEndpoint = Setting<String>(
        "s3-source-endpoint", .text, imgproxy: ["IMGPROXY_S3_ENDPOINT"],
        // imgproxy adds `http://` to an endpoint without a scheme.
        imgproxyParser: ValueParser<String>.text.map { $0.contains("://") ? $0 : "http://" + $0 })
    static let s3SourceRegion = Setting<String>("s3-source-region", .text, imgproxy: ["IMGPROXY_S3_REGION"])
    static let s3Region = Setting<String>("s3-region", .text)
    static let s3Addressing = Setting<S3Addressing>(
        "s3-addressing", .addressing, imgproxy: ["IMGPROXY_S3_ENDPOINT_USE_PATH_STYLE"],
        imgproxyParser: ValueParser<Bool>.boolean.map { $0 ? .path : .virtual })
    static let s3AllowedBuckets = Setting<[String]>(
        "s3-allowed-buckets", .list(), imgproxy: ["IMGPROXY_S3_ALLOWED_BUCKETS"])
    static let s3DeniedBuckets = Setting<[String]>(
        "s3-denied-buckets", .list(), imgproxy: ["IMGPROXY_S3_DENIED_BUCKETS"])
    static let sharedStore = Setting<String>("shared-store", .text)
    static let sharedStoreEndpoint = Setting<String>("shared-store-endpoint", .text)
    static let sharedStoreRegion = Setting<String>("shared-store-region", .text)
    static let sharedStoreTimeout = Setting<Double>("shared-store-timeout", .number)
    static let purgeKey = Setting<String>("purge-key", .text)
    static let peer = Setting<[String]>("peer", .list(), webimage: "PEERS")
    static let selfURL = Setting<String>("self", .text)
    static let peerForward = Setting<Bool>("peer-forward", .boolean)

    // Watermark
    static let watermarkData = Setting<String>("watermark-data", .text, imgproxy: ["IMGPROXY_WATERMARK_DATA"])
    static let watermarkPath = Setting<String>("watermark-path", .text, imgproxy: ["IMGPROXY_WATERMARK_PATH"])
    static let watermarkURL = Setting<String>("watermark-url", .text, imgproxy: ["IMGPROXY_WATERMARK_URL"])
    static let watermarkOpacity = Setting<Double>(
        "watermark-opacity", .number, imgproxy: ["IMGPROXY_WATERMARK_OPACITY"])

    /// Read with `IMGPROXY_PRESETS`: the separator of its presets instead of a comma.
    static let presetsSeparator = "IMGPROXY_PRESETS_SEPARATOR"

    /// Every setting, for the check at start and the list of the variables read.
    static let all: [any SettingVariables] =
        listed + formats + parity + info + svg + telemetry + monitoring + syslog + http + pixels + listener + fetching
        + environmentFile + urls + memory + objectSources + gcpSecret + reporting + aws

    /// The settings of this file.
    private static let listed: [any SettingVariables] = [
        host, port, secret, allowOrigin, logLevel, ttl, workers, queueSize, queueTimeout, timeout, shutdownTimeout,
        malloc, key, salt, signatureSize, trustedSignatures, allowedSources, localRoot, maxSrcResolution,
        maxSrcFileSize, maxAnimationFrames, maxResultDimension, maxRedirects, downloadTimeout, allowLoopbackSources,
        allowPrivateSources, allowLinkLocalSources, preset, presetsFile, autoWebP, autoAVIF, preferredFormats,
        cacheDir, noCache, noResultCache, memoryCacheSize, useS3, s3SourceEndpoint, s3SourceRegion, s3Region,
        s3Addressing, s3AllowedBuckets, s3DeniedBuckets, sharedStore,
        sharedStoreEndpoint, sharedStoreRegion, sharedStoreTimeout, purgeKey, peer, selfURL, peerForward,
        watermarkData, watermarkPath, watermarkURL, watermarkOpacity,
    ]

    /// The `IMGPROXY_` variables read: those of the table and the presets' separator.
    static var imgproxyNames: Set<String> {
        Set(all.flatMap(\.names).filter { $0.hasPrefix("IMGPROXY_") } + [presetsSeparator])
    }

    /// Throws for the first variable of the table whose value does not parse.
    static func check() throws {
        for setting in all { try setting.check() }
    }
}
