import Foundation

/// A client on a raw TCP socket that sends one request and then reads only what it is asked to: the slowest possible
/// reader. A small receive buffer makes the server's writes stall at once. ``reset()`` aborts the connection (RST),
/// so the server's pending write fails at once and nothing waits on it at shutdown.
final class SlowReader: @unchecked Sendable {
    // `descriptor` is set once in init; `reset()` runs once, from the test's task, after the last `read`.
    private let descriptor: Int32
    private var open = true

    init(port: Int, path: String) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var size: Int32 = 4096
        setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        guard connected == 0, send(descriptor, request, request.count, 0) == request.count else {
            close(descriptor)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    /// Blocks until up to `count` bytes arrive; how many did.
    func read(_ count: Int) -> Int {
        var buffer = [UInt8](repeating: 0, count: count)
        return recv(descriptor, &buffer, count, 0)
    }

    /// Waits at most `milliseconds` for bytes to arrive, then reads up to `count`; `nil` when none came in time.
    func read(_ count: Int, within milliseconds: Int32) -> Int? {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, milliseconds) > 0 else { return nil }
        return read(count)
    }

    /// Aborts the connection with a reset.
    func reset() {
        guard open else { return }
        open = false
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close(descriptor)
    }
}
