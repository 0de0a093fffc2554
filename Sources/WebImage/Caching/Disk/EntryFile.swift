import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading and writing one disk cache file (a ``DiskEntryHeader`` followed by the payload).
enum EntryFile {
    /// A file's identity, so that a corrupt entry is deleted only if it was not replaced meanwhile.
    struct Identity: Equatable {
        let device: UInt64
        let inode: UInt64

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    enum Outcome<Value> {
        case missing
        case invalid(Identity)
        case entry(Value)
    }

    /// Reads and verifies the entry at `path`.
    ///
    /// - Parameter touchAfter: when the entry was last accessed longer ago than this, its modification time is set
    ///   to `now` (the LRU clock). `nil` means a read-only directory: nothing is modified, and a file without a
    ///   header is served as raw bytes (bundled images named by the key's hash).
    static func read(at path: String, key: String, now: Date, touchAfter: TimeInterval?) -> Outcome<DiskCacheEntry> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .missing }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return .missing }
        let identity = Identity(info)
        var lastAccess = FileIO.modified(info)
        // One read of the whole file into a buffer that the returned Data takes over: no zero-fill, no copy.
        let file = UnsafeMutableRawBufferPointer.allocate(byteCount: max(Int(info.st_size), 1), alignment: 16)
        let bytes = UnsafeMutableRawBufferPointer(rebasing: file[0..<Int(info.st_size)])
        guard FileIO.pread(fd, into: bytes, at: 0) else {
            file.deallocate()
            return .invalid(identity)
        }
        guard let header = parseHeader(UnsafeRawBufferPointer(bytes), fileSize: bytes.count) else {
            guard touchAfter == nil, !bytes.starts(with: DiskEntryHeader.magic) else {
                file.deallocate()
                return .invalid(identity)
            }
            return raw(adopting: file, count: bytes.count, key: key, modified: lastAccess)
        }
        guard header.key == key else {
            file.deallocate()
            return .invalid(identity)
        }
        if let touchAfter, now.timeIntervalSince(lastAccess) > touchAfter {
            FileIO.setTimes(fd, to: now)
            lastAccess = now
        }
        let data = Data(
            bytesNoCopy: file.baseAddress! + header.headerLength, count: header.payloadLength,
            deallocator: .custom { _, _ in file.deallocate() })
        return .entry(DiskCacheEntry(data: data, metadata: metadata(header, lastAccess: lastAccess)))
    }

    /// Reads and verifies only the header of the entry at `path`.
    static func readMetadata(at path: String) -> Outcome<DiskCacheMetadata> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .missing }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .missing }
        guard let header = readHeader(fd, fileSize: Int(info.st_size)) else { return .invalid(Identity(info)) }
        return .entry(metadata(header, lastAccess: FileIO.modified(info)))
    }

    /// Writes a complete, fsync'd temporary file in `directory` and returns its path. Creates the directory when
    /// it does not exist. On any failure the temporary file is removed and a cache failure thrown.
    static func writeTemporary(
        in directory: String, header: [UInt8], payload: Data, modified: Date,
        createDirectory: () throws(WebImageError) -> Void
    ) throws(WebImageError) -> String {
        let path = "\(directory)/.tmp-\(getpid())-\(UUID().uuidString)"
        var fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if fd < 0, errno == ENOENT {
            try createDirectory()
            fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        }
        guard fd >= 0 else { throw FileIO.failure("cannot create a cache file in", path: directory, errno: errno) }
        var failure = header.withUnsafeBytes { FileIO.write(fd, $0) }
        if failure == nil { failure = payload.withUnsafeBytes { FileIO.write(fd, $0) } }
        if failure == nil {
            FileIO.setTimes(fd, to: modified)
            if fsync(fd) != 0 { failure = errno }
        }
        if close(fd) != 0, failure == nil { failure = errno }
        if let failure {
            unlink(path)
            throw FileIO.failure("cannot write a cache entry in", path: directory, errno: failure)
        }
        return path
    }

    /// Deletes `path` if it is still the file `identity` names; returns whether it did.
    @discardableResult
    static func remove(_ path: String, ifStill identity: Identity) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, Identity(info) == identity else { return false }
        #if canImport(Glibc)
            return Glibc.unlink(path) == 0
        #elseif canImport(Musl)
            return Musl.unlink(path) == 0
        #else
            return Darwin.unlink(path) == 0
        #endif
    }

    /// The header, if the file starts with a valid one and its size is exactly header plus payload; reads only
    /// the header's bytes.
    private static func readHeader(_ fd: Int32, fileSize: Int) -> DiskEntryHeader? {
        guard fileSize >= DiskEntryHeader.fixedLength else { return nil }
        var fixed = [UInt8](repeating: 0, count: DiskEntryHeader.fixedLength)
        guard fixed.withUnsafeMutableBytes({ FileIO.pread(fd, into: $0, at: 0) }),
            let length = fixed.withUnsafeBytes({ DiskEntryHeader.announcedLength($0) }), length <= fileSize
        else { return nil }
        var bytes = [UInt8](repeating: 0, count: length)
        guard bytes.withUnsafeMutableBytes({ FileIO.pread(fd, into: $0, at: 0) }) else { return nil }
        return bytes.withUnsafeBytes { parseHeader($0, fileSize: fileSize) }
    }

    /// The header at the start of `bytes` (the first bytes of a file of `fileSize` bytes, at least the whole
    /// header), if valid and the file is exactly header plus payload.
    private static func parseHeader(_ bytes: UnsafeRawBufferPointer, fileSize: Int) -> DiskEntryHeader? {
        guard bytes.count >= DiskEntryHeader.fixedLength,
            let length = DiskEntryHeader.announcedLength(
                UnsafeRawBufferPointer(rebasing: bytes[0..<DiskEntryHeader.fixedLength])),
            length <= bytes.count,
            let header = DiskEntryHeader(parsing: UnsafeRawBufferPointer(rebasing: bytes[0..<length])),
            header.headerLength + header.payloadLength == fileSize
        else { return nil }
        return header
    }

    /// A file without a header (a bundled image in a read-only directory), served whole; takes over `file`.
    private static func raw(
        adopting file: UnsafeMutableRawBufferPointer, count: Int, key: String, modified: Date
    ) -> Outcome<DiskCacheEntry> {
        let data = Data(
            bytesNoCopy: file.baseAddress!, count: count, deallocator: .custom { _, _ in file.deallocate() })
        let metadata = DiskCacheMetadata(
            key: key, size: count, format: ImageFormat.sniff(data), etag: nil, lastModified: nil, created: modified,
            expires: .distantFuture, lastAccess: modified)
        return .entry(DiskCacheEntry(data: data, metadata: metadata))
    }

    private static func metadata(_ header: DiskEntryHeader, lastAccess: Date) -> DiskCacheMetadata {
        DiskCacheMetadata(
            key: header.key, size: header.payloadLength, format: header.format, etag: header.etag,
            lastModified: header.lastModified, cacheControl: header.cacheControl, expiresHeader: header.expiresHeader,
            created: header.created, expires: header.expires, lastAccess: lastAccess)
    }
}
