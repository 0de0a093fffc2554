import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Thin POSIX helpers for the disk cache: full reads and writes that retry on `EINTR`, directory listing with
/// `fstatat`, and errors worded for people.
enum FileIO {
    /// One file of a directory listing.
    struct Item {
        let name: String
        let size: Int
        let modified: Date
    }

    /// A cache failure naming the operation, the path and the system's reason.
    static func failure(_ what: String, path: String, errno code: Int32) -> WebImageError {
        let reason = String(cString: strerror(code))
        let underlying = POSIXErrorCode(rawValue: code).map { POSIXError($0) }
        return WebImageError(.cacheFailure, "\(what) \(path): \(reason)", underlying: underlying)
    }

    /// Reads exactly `buffer.count` bytes at `offset`; `false` on an error or a short file.
    static func pread(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Bool {
        var done = 0
        while done < buffer.count {
            let result = systemPread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { return false }
            done += result
        }
        return true
    }

    /// Writes all of `bytes`; returns `errno` on failure, `nil` on success.
    static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        var done = 0
        while done < bytes.count {
            let result = systemWrite(fd, bytes.baseAddress! + done, bytes.count - done)
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { return result < 0 ? errno : ENOSPC }
            done += result
        }
        return nil
    }

    /// The modification time of a `stat` result.
    static func modified(_ info: stat) -> Date {
        #if canImport(Darwin)
            let spec = info.st_mtimespec
        #else
            let spec = info.st_mtim
        #endif
        return Date(timeIntervalSince1970: Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9)
    }

    /// Sets a file's access and modification times.
    static func setTimes(_ fd: Int32, to date: Date) {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        let spec = timespec(tv_sec: Int(seconds), tv_nsec: Int((date.timeIntervalSince1970 - seconds) * 1e9))
        _ = [spec, spec].withUnsafeBufferPointer { futimens(fd, $0.baseAddress) }
    }

    /// The regular files of `path` whose names pass `include`, with sizes and modification times. Files that vanish
    /// while listing are skipped; an unreadable directory lists as empty.
    static func list(_ path: String, include: (String) -> Bool) -> [Item] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        let dfd = dirfd(dir)
        var items: [Item] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            guard include(name) else { continue }
            var info = stat()
            guard fstatat(dfd, name, &info, 0) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            items.append(Item(name: name, size: Int(info.st_size), modified: modified(info)))
        }
        return items
    }

    /// Whether `name` is a cache entry's file name: 64 lowercase hex digits.
    static func isEntryName(_ name: String) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Whether `name` is a temporary file of an unfinished write.
    static func isTemporaryName(_ name: String) -> Bool { name.hasPrefix(".tmp-") }

    private static func systemPread(
        _ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int, _ offset: off_t
    )
        -> Int
    {
        #if canImport(Glibc)
            Glibc.pread(fd, buffer, count, offset)
        #elseif canImport(Musl)
            Musl.pread(fd, buffer, count, offset)
        #else
            Darwin.pread(fd, buffer, count, offset)
        #endif
    }

    private static func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.write(fd, buffer, count)
        #elseif canImport(Musl)
            Musl.write(fd, buffer, count)
        #else
            Darwin.write(fd, buffer, count)
        #endif
    }
}
