import Foundation
import Logging

/// A connection to a syslog daemon, made and written as Go's `log/syslog` does for imgproxy's `IMGPROXY_SYSLOG_*`:
/// with no network, the local daemon's socket (`/dev/log`, `/var/run/syslog` or `/var/run/log`, datagram or
/// stream); else `udp`, `tcp` (`4`/`6` variants) or `unix`/`unixgram` to `address`. Each line goes as
/// `<PRI>TIME TAG[PID]: LINE` locally and `<PRI>TIME HOST TAG[PID]: LINE` (RFC 3339 time) over a network, the priority
/// the line's severity alone (debug 7, info 6, warning 4, error 3), as imgproxy's hook sends them.
///
/// Used by one thread at a time (``LogLineWriter``'s); a message that cannot be sent is dropped, as imgproxy drops it.
struct SyslogWriter: Sendable {
    private let descriptor: Int32
    private let stream: Bool
    private let local: Bool
    private let prefix: String

    /// Connects as Go's `syslog.Dial(network, address, LOG_INFO, tag)`; throws what went wrong, naming the address.
    init(network: String, address: String, tag: String) throws(SyslogError) {
        let hostname = ProcessInfo.processInfo.hostName
        local = network.isEmpty
        prefix = local ? " \(tag)[\(getpid())]: " : " \(hostname) \(tag)[\(getpid())]: "
        switch network {
        case "":
            for path in ["/dev/log", "/var/run/syslog", "/var/run/log"] {
                for type in [SOCK_DGRAM, SOCK_STREAM] {
                    if let descriptor = Self.connectUnix(path, type: Int32(type.rawValue)) {
                        (self.descriptor, stream) = (descriptor, type == SOCK_STREAM)
                        return
                    }
                }
            }
            throw SyslogError("no local syslog daemon (/dev/log, /var/run/syslog, /var/run/log)")
        case "unix", "unixgram":
            let type = network == "unix" ? SOCK_STREAM : SOCK_DGRAM
            guard let descriptor = Self.connectUnix(address, type: Int32(type.rawValue)) else {
                throw SyslogError("cannot connect to \(network) socket \(address): \(String(cString: strerror(errno)))")
            }
            (self.descriptor, stream) = (descriptor, network == "unix")
        case "udp", "udp4", "udp6", "tcp", "tcp4", "tcp6":
            let isStream = network.hasPrefix("tcp")
            descriptor = try Self.connectNetwork(network, address, stream: isStream)
            stream = isStream
        default:
            throw SyslogError("unknown network '\(network)' (udp, tcp, unix or unixgram)")
        }
    }

    /// Sends `line` (without its newline) at `level`'s severity.
    func send(_ line: String, level: Logger.Level, at date: Date) {
        let severity =
            switch level {
            case .trace, .debug: 7
            case .info, .notice: 6
            case .warning: 4
            case .error, .critical: 3
            }
        let message = Array("<\(severity)>\(timestamp(date))\(prefix)\(line)\n".utf8)
        message.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = Foundation.send(
                    descriptor, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                if count > 0 && stream {
                    offset += count
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }

    /// Go's `time.Stamp` in local time for the local daemon, RFC 3339 for a network one.
    private func timestamp(_ date: Date) -> String {
        LogClock.format(LogClock.second(date), local ? "%b %e %H:%M:%S" : "%Y-%m-%dT%H:%M:%SZ", local: local)
    }

    private static func connectUnix(_ path: String, type: Int32) -> Int32? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let descriptor = socket(AF_UNIX, type, 0)
        guard descriptor >= 0 else { return nil }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    private static func connectNetwork(_ network: String, _ address: String, stream: Bool) throws(SyslogError) -> Int32
    {
        guard let colon = address.lastIndex(of: ":") else { throw SyslogError("address '\(address)' is not HOST:PORT") }
        let host = address[..<colon].trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let port = String(address[address.index(after: colon)...])
        guard let number = Int(port), (1...65535).contains(number) else {
            throw SyslogError("address '\(address)' has no port")
        }
        var hints = addrinfo()
        hints.ai_family = network.hasSuffix("4") ? AF_INET : network.hasSuffix("6") ? AF_INET6 : AF_UNSPEC
        hints.ai_socktype = Int32((stream ? SOCK_STREAM : SOCK_DGRAM).rawValue)
        var results: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host.isEmpty ? "localhost" : host, port, &hints, &results) == 0, let first = results else {
            throw SyslogError("cannot resolve '\(address)'")
        }
        defer { freeaddrinfo(first) }
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            let descriptor = socket(current.pointee.ai_family, current.pointee.ai_socktype, current.pointee.ai_protocol)
            if descriptor >= 0 {
                if connect(descriptor, current.pointee.ai_addr, current.pointee.ai_addrlen) == 0 { return descriptor }
                close(descriptor)
            }
            entry = current.pointee.ai_next
        }
        throw SyslogError("cannot connect to \(network) \(address): \(String(cString: strerror(errno)))")
    }
}

/// Why `webimage serve` could not reach its syslog daemon.
struct SyslogError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
