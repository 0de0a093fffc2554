import Foundation

/// A client on a raw TCP socket to 127.0.0.1 that sends exactly the bytes it is given, for tests of what the server
/// does with a connection: a request sent in part, a connection kept alive.
final class RawConnection: @unchecked Sendable {
    // `descriptor` is set once in init; every call comes from one test task in turn, and `close()` comes last.
    private let descriptor: Int32

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            Glibc.close(descriptor)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    /// Sends `text` whole.
    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard Glibc.send(descriptor, bytes, bytes.count, 0) == bytes.count else { throw POSIXError(.EPIPE) }
    }

    /// What arrives within `milliseconds`: the bytes read, empty when the server closed the connection (end of
    /// stream or reset), `nil` when nothing came in time.
    func read(within milliseconds: Int32) -> Data? {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, milliseconds) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        return count > 0 ? Data(buffer[..<count]) : Data()
    }

    /// Reads until the response's head and `Content-Length` bytes of body have arrived (or the connection closed,
    /// or nothing came for `milliseconds`); the text read.
    func readResponse(within milliseconds: Int32) -> String {
        var received = Data()
        while let chunk = read(within: milliseconds), !chunk.isEmpty {
            received.append(chunk)
            let text = String(decoding: received, as: UTF8.self)
            guard let end = text.range(of: "\r\n\r\n") else { continue }
            let length =
                text[..<end.lowerBound].split(separator: "\r\n")
                .first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
            if text.utf8.count - text[..<end.upperBound].utf8.count >= length { return text }
        }
        return String(decoding: received, as: UTF8.self)
    }

    func close() { Glibc.close(descriptor) }
}
