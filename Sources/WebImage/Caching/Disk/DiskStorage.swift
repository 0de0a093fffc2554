import Crypto
import Foundation

/// The blocking core of ``DiskCache``: every method does its file I/O on the calling thread. ``DiskCache`` calls
/// it from its own queue.
///
/// Safe to use from several threads and several processes at once: entries are replaced only by `rename(2)` of a
/// fully written, fsync'd temporary file, every file may vanish at any moment (another process trimming), and the
/// only in-process state (the read-only index and an approximate size) sits in a `Locked`.
final class DiskStorage: Sendable {
    let directory: String
    let readOnlyDirectories: [String]
    let configuration: DiskCache.Configuration
    let now: @Sendable () -> Date

    private struct State {
        /// The file names in each read-only directory, listed once on first use.
        var readOnlyIndex: [Set<String>]?
        /// The size of the main directory as last scanned plus what this process wrote since; `nil` = unknown.
        var approximateSize: Int?
    }
    private let state = Locked(State())

    init(directory: URL, configuration: DiskCache.Configuration, now: @escaping @Sendable () -> Date) {
        self.directory = directory.path
        readOnlyDirectories = configuration.readOnlyDirectories.map(\.path)
        self.configuration = configuration
        self.now = now
    }

    /// The file name of `key`: the lowercase hex SHA-256 of its UTF-8 bytes.
    static func fileName(forKey key: String) -> String { Hex.sha256(key) }

    // MARK: Reading

    /// The entry for `key` from the main directory, else from the read-only ones. A corrupt entry in the main
    /// directory is deleted. An absent key costs one failed `open(2)`: read-only directories are indexed once.
    func read(_ key: String, includingExpired: Bool) -> DiskCacheEntry? {
        let name = Self.fileName(forKey: key)
        switch EntryFile.read(at: directory + "/" + name, key: key, now: now(), touchAfter: touchAfter) {
        case .entry(let entry):
            return includingExpired || !isExpired(entry.metadata) ? entry : nil
        case .invalid(let inode):
            EntryFile.remove(directory + "/" + name, ifStill: inode)
            return nil
        case .missing:
            break
        }
        let index = readOnlyIndex()
        for (position, other) in readOnlyDirectories.enumerated() where index[position].contains(name) {
            if case .entry(let entry) = EntryFile.read(at: other + "/" + name, key: key, now: now(), touchAfter: nil) {
                return entry
            }
        }
        return nil
    }

    /// Whether a file for `key` exists, without reading it.
    func contains(_ key: String) -> Bool {
        let name = Self.fileName(forKey: key)
        var info = stat()
        if stat(directory + "/" + name, &info) == 0 { return true }
        return readOnlyIndex().contains { $0.contains(name) }
    }

    private var touchAfter: TimeInterval? { configuration.accessTimeResolution }

    func isExpired(_ metadata: DiskCacheMetadata) -> Bool {
        now() > metadata.expiryDate(maxAge: configuration.maxAge)
    }

    private func readOnlyIndex() -> [Set<String>] {
        if let index = state.withLock({ $0.readOnlyIndex }) { return index }
        let index = readOnlyDirectories.map { Set(FileIO.list($0, include: FileIO.isEntryName).map(\.name)) }
        state.withLock { $0.readOnlyIndex = index }
        return index
    }

    // MARK: Writing

    /// Writes `data` for `key`: into a temporary file in the directory, fsync'd, then renamed over the entry.
    ///
    /// - Returns: whether the directory is now over its size limit and should be trimmed.
    func write(_ data: Data, forKey key: String, attributes: CacheEntryAttributes) throws(WebImageError) -> Bool {
        let created = now()
        let header = DiskEntryHeader(
            payloadLength: data.count, created: created, expires: attributes.expires, key: key,
            format: attributes.format ?? ImageFormat.sniff(data), etag: attributes.etag,
            lastModified: attributes.lastModified, cacheControl: attributes.cacheControl,
            expiresHeader: attributes.expiresHeader)
        let final = directory + "/" + Self.fileName(forKey: key)
        let temporary = try EntryFile.writeTemporary(
            in: directory, header: header.encoded(), payload: data, modified: created,
            createDirectory: { () throws(WebImageError) in try self.createDirectory() })
        var previous = stat()
        let previousSize = stat(final, &previous) == 0 ? Int(previous.st_size) : 0
        guard rename(temporary, final) == 0 else {
            let code = errno
            unlink(temporary)
            throw FileIO.failure("cannot rename a cache entry into", path: directory, errno: code)
        }
        let written = header.headerLength + data.count - previousSize
        let size = state.withLock { state -> Int? in
            state.approximateSize = state.approximateSize.map { $0 + written }
            return state.approximateSize
        }
        return (size ?? scannedSize()) > configuration.maxSize
    }

    /// Removes the entry for `key` from the main directory; an absent entry is fine.
    func remove(_ key: String) {
        let path = directory + "/" + Self.fileName(forKey: key)
        var info = stat()
        guard stat(path, &info) == 0, unlink(path) == 0 else { return }
        state.withLock { $0.approximateSize = $0.approximateSize.map { max(0, $0 - Int(info.st_size)) } }
    }

    /// Removes every entry, and temporary files left by writers that died.
    func removeAll() {
        let stale = now().addingTimeInterval(-configuration.temporaryFileLifetime)
        for item in FileIO.list(directory, include: { FileIO.isEntryName($0) || FileIO.isTemporaryName($0) })
        where FileIO.isEntryName(item.name) || item.modified < stale {
            unlink(directory + "/" + item.name)
        }
        state.withLock { $0.approximateSize = nil }
    }

    private func createDirectory() throws(WebImageError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw WebImageError(.cacheFailure, "cannot create the cache directory \(directory)", underlying: error)
        }
    }

    // MARK: Limits

    /// The entries of the main directory, with sizes and last access times.
    func entries() -> [FileIO.Item] { FileIO.list(directory, include: FileIO.isEntryName) }

    /// Scans the directory and records its size.
    func scannedSize() -> Int {
        let size = entries().reduce(0) { $0 + $1.size }
        state.withLock { $0.approximateSize = size }
        return size
    }

    /// Deletes expired and corrupt entries and stale temporary files; returns how many entries were deleted.
    @discardableResult
    func removeExpired() -> Int {
        var removed = 0
        let current = now()
        for item in entries() {
            let path = directory + "/" + item.name
            switch EntryFile.readMetadata(at: path) {
            case .entry(let metadata) where current > metadata.expiryDate(maxAge: configuration.maxAge):
                if unlink(path) == 0 { removed += 1 }
            case .invalid(let inode):
                if EntryFile.remove(path, ifStill: inode) { removed += 1 }
            default:
                break
            }
        }
        let stale = current.addingTimeInterval(-configuration.temporaryFileLifetime)
        for item in FileIO.list(directory, include: FileIO.isTemporaryName) where item.modified < stale {
            unlink(directory + "/" + item.name)
        }
        state.withLock { $0.approximateSize = nil }
        return removed
    }

    /// When the directory is over ``DiskCache/Configuration/maxSize``, deletes least recently accessed entries
    /// until it is at most ``DiskCache/Configuration/trimRatio`` of it. Returns how many were deleted.
    @discardableResult
    func trim() -> Int {
        let items = entries()
        let total = items.reduce(0) { $0 + $1.size }
        guard total > configuration.maxSize else {
            state.withLock { $0.approximateSize = total }
            return 0
        }
        return trim(items, total: total, to: Int(Double(configuration.maxSize) * configuration.trimRatio))
    }

    /// Deletes least recently accessed entries until the directory holds at most `size` bytes.
    @discardableResult
    func trim(toSize size: Int) -> Int {
        let items = entries()
        return trim(items, total: items.reduce(0) { $0 + $1.size }, to: size)
    }

    private func trim(_ items: [FileIO.Item], total: Int, to target: Int) -> Int {
        var total = total
        var removed = 0
        for item in items.sorted(by: { $0.modified < $1.modified }) where total > target {
            // Another process may have deleted it already: the bytes are gone either way.
            if unlink(directory + "/" + item.name) == 0 { removed += 1 }
            total -= item.size
        }
        state.withLock { $0.approximateSize = total }
        return removed
    }
}
