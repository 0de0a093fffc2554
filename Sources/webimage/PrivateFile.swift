import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Text that a library wants as a file path (the OTLP exporters' TLS certificates and key), written to a file no one else can
/// read that is gone from the file system before anyone could look for it: made with mode 0600 in a fresh 0700
/// directory, opened, then both unlinked. The open descriptor, kept for the life of the process, is the only way
/// to the contents, through ``path`` (`/proc/self/fd/N`, which reopens the file), so nothing is left behind however
/// the process ends.
struct PrivateFile: Sendable {
    /// A path that opens the contents, while the process lives.
    let path: String

    /// Writes `contents` as described above.
    ///
    /// - Throws: `ValidationError` naming `name` (never the contents) when the file cannot be made.
    init(_ contents: String, name: String) throws {
        #if os(Linux)
            let template = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-XXXXXX").path
            var directoryBytes = Array(template.utf8CString)
            guard mkdtemp(&directoryBytes) != nil else {
                throw ValidationError("\(name): cannot make a private temporary directory (errno \(errno))")
            }
            let directory = String(
                decoding: directoryBytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            defer { rmdir(directory) }
            let file = directory + "/contents"
            let descriptor = open(file, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw ValidationError("\(name): cannot make a private file (errno \(errno))") }
            unlink(file)
            var bytes = Array(contents.utf8)[...]
            while !bytes.isEmpty {
                let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                guard written > 0 else {
                    close(descriptor)
                    throw ValidationError("\(name): cannot write its private file (errno \(errno))")
                }
                bytes = bytes.dropFirst(written)
            }
            path = "/proc/self/fd/\(descriptor)"
        #else
            throw ValidationError("\(name): PEM contents in a variable are read on Linux only")
        #endif
    }
}
