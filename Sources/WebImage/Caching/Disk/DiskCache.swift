import Foundation

/// A directory of encoded images, one file per key, safe against crashes and shared between processes.
///
/// Each entry is a file named by the hex SHA-256 of its key, holding a small header (key, size, format, ETag,
/// Last-Modified, creation and expiry dates) and the bytes. Writes go to a temporary file in the same directory,
/// are fsync'd and then renamed over the entry, so a reader never sees a partial entry and a writer killed midway
/// leaves only a temporary file, which is never read and is swept later. A read verifies the header, the key and
/// the length; anything else is a miss and the file is deleted. The file's modification time is its last access.
///
/// Limits: entries older than ``Configuration/maxAge`` (or past their own expiry) are misses and are deleted by
/// ``removeExpired()``; when the directory grows past ``Configuration/maxSize``, the least recently accessed entries
/// are deleted down to ``Configuration/trimRatio`` of it. Both run in the background every
/// ``Configuration/sweepInterval``, after a write that crosses the size limit, and on demand.
///
/// No I/O runs on the caller's actor: reads (a few system calls on a page-cache hit) run on the global concurrent
/// executor; writes, which fsync, and sweeps run on a serial queue owned by the cache.
public final class DiskCache: Sendable {
    /// Limits and locations, fixed at creation.
    public struct Configuration: Sendable {
        /// How long an entry lives after it is written, unless stored with its own expiry. Default: 7 days.
        public var maxAge: TimeInterval
        /// The size in bytes above which the least recently accessed entries are deleted. Default: 1 GiB.
        public var maxSize: Int
        /// The fraction of ``maxSize`` that trimming brings the directory down to. Default: 0.8.
        public var trimRatio: Double
        /// Directories searched, read-only, after the main one (e.g. bundled images). Their files may be entries
        /// written by a `DiskCache` or plain image files named by the hex SHA-256 of the key. They never expire.
        public var readOnlyDirectories: [URL]
        /// How often expired entries are removed and the size limit enforced in the background; `nil` for never.
        /// Default: one hour, the first sweep a few seconds after creation.
        public var sweepInterval: TimeInterval?
        /// A read updates an entry's last access only when the previous one is older than this, sparing a metadata
        /// write per hit. Default: 60 seconds.
        public var accessTimeResolution: TimeInterval
        /// Temporary files older than this are considered left by a dead writer and deleted. Default: one hour.
        public var temporaryFileLifetime: TimeInterval

        /// Creates a configuration with the defaults described on each property.
        public init(
            maxAge: TimeInterval = 7 * 24 * 3600, maxSize: Int = 1 << 30, trimRatio: Double = 0.8,
            readOnlyDirectories: [URL] = [], sweepInterval: TimeInterval? = 3600,
            accessTimeResolution: TimeInterval = 60, temporaryFileLifetime: TimeInterval = 3600
        ) {
            self.maxAge = maxAge
            self.maxSize = maxSize
            self.trimRatio = trimRatio
            self.readOnlyDirectories = readOnlyDirectories
            self.sweepInterval = sweepInterval
            self.accessTimeResolution = accessTimeResolution
            self.temporaryFileLifetime = temporaryFileLifetime
        }
    }

    /// The main directory.
    public let directory: URL
    /// The limits this cache was created with.
    public let configuration: Configuration
    private let storage: DiskStorage
    private let queue: DispatchQueue
    private let sweeper: Task<Void, Never>?

    /// A cache in ``defaultDirectory(namespace:)``.
    public convenience init(
        namespace: String = "default", configuration: Configuration = Configuration(),
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.init(
            directory: Self.defaultDirectory(namespace: namespace), configuration: configuration, clock: clock)
    }

    /// A cache in `directory`, created on the first write if needed.
    ///
    /// - Parameters:
    ///   - directory: where the entries live, one file each.
    ///   - configuration: the limits and the sweep interval.
    ///   - clock: the current date, for creation, expiry and last access (inject one in tests).
    public init(
        directory: URL, configuration: Configuration = Configuration(),
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.directory = directory
        self.configuration = configuration
        let storage = DiskStorage(directory: directory, configuration: configuration, now: clock)
        let queue = DispatchQueue(label: "WebImage.DiskCache(\(directory.lastPathComponent))", qos: .utility)
        self.storage = storage
        self.queue = queue
        sweeper = configuration.sweepInterval.map { interval in
            Task.detached(priority: .background) {
                var delay = min(5, interval)
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(delay))
                    if Task.isCancelled { return }
                    await Self.run(on: queue) {
                        storage.removeExpired()
                        storage.trim()
                    }
                    delay = interval
                }
            }
        }
    }

    deinit { sweeper?.cancel() }

    /// `$XDG_CACHE_HOME/swift-web-image/<namespace>`, or `~/.cache/swift-web-image/<namespace>`.
    public static func defaultDirectory(namespace: String) -> URL {
        let environment = ProcessInfo.processInfo.environment
        let base: URL
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            base = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache", isDirectory: true)
        }
        return base.appendingPathComponent("swift-web-image", isDirectory: true)
            .appendingPathComponent(namespace, isDirectory: true)
    }

    /// The file that holds (or would hold) the entry for `key` in the main directory.
    public func fileURL(forKey key: String) -> URL {
        directory.appendingPathComponent(DiskStorage.fileName(forKey: key), isDirectory: false)
    }

    /// The bytes stored for `key`, or `nil` when absent, expired or corrupt (a corrupt entry is deleted).
    public func data(forKey key: String) async -> Data? {
        await entry(forKey: key)?.data
    }

    /// The bytes and metadata stored for `key`.
    ///
    /// - Parameters:
    ///   - key: the entry's key.
    ///   - includingExpired: also return an expired entry (to revalidate it with its ETag, say).
    @concurrent
    public func entry(forKey key: String, includingExpired: Bool = false) async -> DiskCacheEntry? {
        // A read is short and safe alongside writers (entries only ever appear by rename), so it runs right here on
        // the global concurrent executor, never on the caller's actor, without a second hop to the queue.
        storage.read(key, includingExpired: includingExpired)
    }

    /// Stores `data` for `key`, replacing any previous entry atomically.
    ///
    /// - Throws: ``WebImageError/Code/cacheFailure`` when the directory cannot be created or written (full disk,
    ///   read-only file system, no permission); the previous entry, if any, is then left as it was.
    public func store(
        _ data: Data, forKey key: String, attributes: CacheEntryAttributes = .none
    )
        async throws(WebImageError)
    {
        let result = await Self.run(on: queue) { [storage] in
            Result { () throws(WebImageError) in try storage.write(data, forKey: key, attributes: attributes) }
        }
        if try result.get() {
            // Over the size limit: trim after this write, without making its caller wait.
            queue.async { [storage] in storage.trim() }
        }
    }

    /// Removes the entry for `key` from the main directory.
    public func remove(forKey key: String) async {
        await Self.run(on: queue) { [storage] in storage.remove(key) }
    }

    /// Whether a file exists for `key` (it is not read or verified).
    @concurrent
    public func contains(_ key: String) async -> Bool {
        storage.contains(key)
    }

    /// Removes every entry of the main directory. Files that are not entries are left alone.
    public func removeAll() async {
        await Self.run(on: queue) { [storage] in storage.removeAll() }
    }

    /// The number of entries in the main directory.
    public func count() async -> Int {
        await Self.run(on: queue) { [storage] in storage.entries().count }
    }

    /// The size in bytes of the entries in the main directory.
    public func totalSize() async -> Int {
        await Self.run(on: queue) { [storage] in storage.scannedSize() }
    }

    /// Deletes expired and corrupt entries, and temporary files of dead writers. Returns how many entries went.
    @discardableResult
    public func removeExpired() async -> Int {
        await Self.run(on: queue) { [storage] in storage.removeExpired() }
    }

    /// If the directory exceeds ``Configuration/maxSize``, deletes the least recently accessed entries until it is
    /// at most ``Configuration/trimRatio`` of it. Returns how many entries went.
    @discardableResult
    public func trim() async -> Int {
        await Self.run(on: queue) { [storage] in storage.trim() }
    }

    /// Deletes the least recently accessed entries until the directory holds at most `size` bytes.
    @discardableResult
    public func trim(toSize size: Int) async -> Int {
        await Self.run(on: queue) { [storage] in storage.trim(toSize: size) }
    }

    private static func run<T: Sendable>(on queue: DispatchQueue, _ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: body()) }
        }
    }
}
