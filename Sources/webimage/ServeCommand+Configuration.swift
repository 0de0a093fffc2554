import ArgumentParser
import Foundation
import Logging
import WebImage
import WebImageServer
import WebImageStores

/// What `webimage serve` runs with: the server's configuration and the settings of the process around it.
struct ServeSetup {
    var configuration: ImageServerConfiguration
    /// Where the server listens.
    var address: ServerAddress
    /// Seconds requests in flight may take after SIGTERM.
    var shutdownTimeout: Double
    var allocator: MemoryAllocator
}

extension ServeCommand {
    /// Every setting from its flag, its `WEBIMAGE_` variable or imgproxy's (``Settings``), checked; logs the one
    /// warning naming the `IMGPROXY_` variables that are ignored.
    func makeSetup() throws -> ServeSetup {
        // Before any other setting is read: the file's variables stand for the environment's.
        let fileWarning = try Settings.loadEnvironmentFile(flag: envLocalFilePath)
        try Settings.check()
        var configuration = ImageServerConfiguration()
        let logFormat = try parity.resolvedLogFormat()
        configuration.logger = logFormat.logger(label: "webimage.serve")
        let outputLevel = try Settings.logLevel.resolve(parsing: logLevel) ?? .info
        let syslog = try self.syslog.connect()
        // Lines below the output's level may still be for syslog (imgproxy's levels are independent).
        configuration.logger.logLevel = min(outputLevel, syslog?.level ?? outputLevel)
        LogLineWriter.standardError.route(outputLevel: outputLevel, syslog: syslog)
        if configuration.logger.logLevel <= .info {
            configuration.requestLog = logFormat.requestLog(label: "webimage.serve")
        }
        if let warning = ImgproxyVariables.warning(for: ProcessInfo.processInfo.environment) {
            configuration.logger.warning("\(warning)")
        }
        if let fileWarning { configuration.logger.warning("\(fileWarning)") }
        configuration.signer = try makeSigner()
        configuration.presets = try makePresets()
        // Before the info presets, which are read with its arguments separator.
        try urls.apply(to: &configuration)
        configuration.secret = try Settings.secret.resolve(secret)
        configuration.allowOrigin = try Settings.allowOrigin.resolve(allowOrigin)
        configuration.allowedSources = try Settings.allowedSources.resolve(allowedSources)
        configuration.localRoot = try Self.directory(try Settings.localRoot.resolve(localRoot), "--local-root")
        configuration.cacheDirectory = try Self.directory(
            try Settings.cacheDir.resolve(cacheDir), "--cache-dir", creating: true)
        configuration.cachesResults = try !(Settings.noCache.resolve(switch: noCache))
        configuration.cachesProcessedResults = try !(Settings.noResultCache.resolve(switch: noResultCache))
        if let megabytes = try Settings.memoryCacheSize.resolve(memoryCacheSize) {
            configuration.resultMemoryCacheSize = Self.saturating(Double(megabytes) * 1024 * 1024)
        }
        configuration.limits = try makeLimits()
        if let ttl = try Settings.ttl.resolve(ttl) { configuration.ttl = ttl }
        configuration.autoWebP = try Settings.autoWebP.resolve(autoWebp) ?? configuration.autoWebP
        configuration.autoAVIF = try Settings.autoAVIF.resolve(autoAvif) ?? configuration.autoAVIF
        if let names = try Settings.preferredFormats.resolve(parsing: preferredFormats) {
            configuration.preferredFormats = try names.map { name in
                guard let format = ImageServerConfiguration.writableFormat(named: name) else {
                    throw ValidationError("--preferred-formats: '\(name)' is not a format the server writes")
                }
                return format
            }
        }
        configuration.addressPolicy = SourceAddressPolicy(
            allowsLoopback: try Settings.allowLoopbackSources.resolve(switch: allowLoopbackSources),
            allowsPrivate: try Settings.allowPrivateSources.resolve(switch: allowPrivateSources),
            allowsLinkLocal: try Settings.allowLinkLocalSources.resolve(switch: allowLinkLocalSources))
        try cluster.apply(to: &configuration)
        configuration.objectSources = try Settings.objectStoreLoaders(
            timeout: configuration.limits.downloadTimeout, logger: configuration.logger)
        try watermark.apply(to: &configuration)
        try encoding.apply(to: &configuration)
        try parity.apply(to: &configuration)
        try info.apply(to: &configuration)
        try formats.apply(to: &configuration)
        try svg.apply(to: &configuration)
        try pixels.apply(to: &configuration)
        try telemetry.apply(to: &configuration)
        try monitoring.apply(to: &configuration)
        try http.apply(to: &configuration)
        try listener.apply(to: &configuration)
        try reporting.apply(to: &configuration)
        try fetching.apply(to: &configuration)
        try memory.apply(to: &configuration)
        configuration.whenIdle = { MemoryAllocator.releaseFreeMemory() }
        do { try configuration.validate() } catch { throw ValidationError(error.description) }
        let shutdownTimeout = try Settings.shutdownTimeout.resolve(shutdownTimeout) ?? 10
        guard shutdownTimeout.isFinite, shutdownTimeout > 0, shutdownTimeout <= 86_400 else {
            throw ValidationError("--shutdown-timeout must be between 0 and 86400 seconds")
        }
        return ServeSetup(
            configuration: configuration,
            address: try listener.address(host: Settings.host.resolve(host), port: Settings.port.resolve(port) ?? 8080),
            shutdownTimeout: shutdownTimeout,
            allocator: try Settings.malloc.resolve(malloc) ?? .tuned)
    }

    /// The presets of `--preset` and of the `--presets-file`.
    private func makePresets() throws -> Presets {
        var definitions = try Settings.preset.resolve(preset)
        if let path = try Settings.presetsFile.resolve(presetsFile) {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw ValidationError("--presets-file: cannot read \(path)")
            }
            definitions += text.split(whereSeparator: \.isNewline).map(String.init)
        }
        let separator = try urls.resolvedArgumentsSeparator()
        do { return try Presets(definitions: definitions, argumentsSeparator: separator) } catch {
            throw ValidationError("--preset: \(error.message)")
        }
    }

    /// The signer of `--key` and `--salt` (comma-separated lists, paired in order), `--signature-size` and
    /// `--trusted-signatures`; `nil` without keys.
    private func makeSigner() throws -> URLSigner? {
        func list(_ text: String) -> [String] {
            text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        switch (try Settings.key.resolve(key), try Settings.salt.resolve(salt)) {
        case (nil, nil): return nil
        case (let keys?, let salts?):
            let (keys, salts) = (list(keys), list(salts))
            guard keys.count == salts.count else {
                throw ValidationError("--key and --salt must list as many salts as keys")
            }
            let size = try Settings.signatureSize.resolve(signatureSize) ?? URLSigner.fullSignatureSize
            guard (1...URLSigner.fullSignatureSize).contains(size) else {
                throw ValidationError("--signature-size must be between 1 and 32")
            }
            let trusted = Set(list(try Settings.trustedSignatures.resolve(trustedSignatures) ?? ""))
            guard
                let signer = URLSigner(hexKeys: keys, hexSalts: salts, signatureSize: size, trustedSignatures: trusted)
            else { throw ValidationError("--key and --salt must be non-empty hexadecimal") }
            return signer
        default: throw ValidationError("--key and --salt go together")
        }
    }

    /// The limits given by flags or the environment, over the library's defaults; the library checks their ranges.
    private func makeLimits() throws -> ServerLimits {
        var limits = ServerLimits()
        if let megapixels = try Settings.maxSrcResolution.resolve(maxSrcResolution) {
            limits.maxSourceResolution = Self.saturating(megapixels * 1_000_000)
        }
        if let bytes = try Settings.maxSrcFileSize.resolve(maxSrcFileSize) { limits.maxSourceFileSize = bytes }
        if let frames = try Settings.maxAnimationFrames.resolve(maxAnimationFrames) {
            limits.maxAnimationFrames = frames
        }
        if let side = try Settings.maxResultDimension.resolve(maxResultDimension) { limits.maxResultDimension = side }
        if let count = try Settings.maxRedirects.resolve(maxRedirects) { limits.maxRedirects = count }
        if let seconds = try Settings.downloadTimeout.resolve(downloadTimeout) {
            limits.downloadTimeout = Self.duration(seconds)
        }
        if let seconds = try Settings.timeout.resolve(timeout) { limits.requestTimeout = Self.duration(seconds) }
        if let count = try Settings.workers.resolve(workers) { limits.processingSlots = count }
        if let count = try Settings.queueSize.resolve(queueSize) { limits.processingQueue = count }
        if let seconds = try Settings.queueTimeout.resolve(queueTimeout) {
            limits.queueTimeout = Self.duration(seconds)
        }
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
    static func duration(_ seconds: Double) -> Duration {
        .milliseconds(Int64(clamping: saturating((seconds * 1000).rounded(.up))))
    }

    /// `value` as an integer, clamped to `Int`'s range (NaN is 0), so that no flag can trap a conversion.
    static func saturating(_ value: Double) -> Int {
        guard !value.isNaN else { return 0 }
        return value >= 0x1p63 ? .max : value <= -0x1p63 ? .min : Int(value)
    }
}

extension ServeCommand {
    /// imgproxy signs in to OpenStack Swift at start: a refusal stops it. Credentials from a metadata server (GCE's,
    /// Azure's IMDS, then Azure's developer tools) are asked for a token at start, as Go's clients find out at start
    /// whether there is one: without one, Azure requests are anonymous (public containers), and so are GCS requests
    /// to an `IMGPROXY_GCS_ENDPOINT` (an emulator), while Google's own endpoint stops the start, as imgproxy stops
    /// without default credentials.
    static func signInToStores(_ configuration: ImageServerConfiguration) async throws {
        for store in configuration.objectSources.map(\.store) {
            if let swift = store as? SwiftClient {
                do { try await swift.authenticate() } catch {
                    throw ValidationError("swift authentication failed: \(error.message)")
                }
            } else if let gcs = store as? GCSClient, gcs.credentials?.isMetadataServer == true,
                await !gcs.probeCredentials()
            {
                guard gcs.endpoint != GCSClient.defaultEndpoint else {
                    let source = gcs.credentials.map { "\($0)" } ?? ""
                    throw ValidationError(
                        "IMGPROXY_USE_GCS: no Google credentials: no IMGPROXY_GCS_KEY, GOOGLE_APPLICATION_CREDENTIALS "
                            + "or gcloud's file, and no token from the \(source)")
                }
                configuration.logger.info(
                    "GCS: no credentials (no key, no token from the metadata server); requests are anonymous")
            } else if let azure = store as? AzureBlobClient, let credentials = azure.credentials,
                credentials.isProbedAtStart
            {
                if await azure.probeCredentials() {
                    configuration.logger.info(
                        "Azure Blob Storage: tokens from \(credentials.tokenSource ?? "\(credentials)")")
                } else {
                    let source = "\(credentials)"
                    configuration.logger.info(
                        "Azure Blob Storage: no credentials (no key, no token from \(source)); requests are anonymous")
                }
            }
        }
    }

    /// Shuts down the clients of the stores made for `configuration` (the shared tier, the `s3://` sources, the other
    /// object stores, the decryption client's KMS): the server leaves them to their maker, and an HTTP client that
    /// goes without a shutdown traps.
    static func shutDownStores(of configuration: ImageServerConfiguration) async {
        try? await configuration.sharedStore?.client.shutdown()
        try? await configuration.s3Sources?.shutdown()
        for source in configuration.objectSources { try? await source.store.shutdown() }
        try? await configuration.s3SourceDecryption?.kms.json.sender.shutdown()
    }
}
