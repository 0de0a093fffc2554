import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IPv4 or IPv6 address as a number, for ``SourceAddressPolicy``.
///
/// Text is only ever turned into an address by the C library (`inet_pton` through NIO's `SocketAddress`, or
/// `getaddrinfo`), the same code that decides where a connection goes, so an odd spelling (`0x7f.1`, `2130706433`,
/// `127.1`) is read as the address it actually connects to.
enum IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// An IPv4 address, most significant byte first.
    case v4(UInt32)
    /// An IPv6 address, most significant byte first.
    case v6(UInt128)

    /// The address of an IP socket address; nil for a Unix domain socket.
    init?(_ address: SocketAddress) {
        switch address {
        case .v4(let socket):
            self = .v4(UInt32(bigEndian: socket.address.sin_addr.s_addr))
        case .v6(let socket):
            self = .v6(Self.number(of: socket.address.sin6_addr))
        case .unixDomainSocket:
            return nil
        }
    }

    /// The address of a strict literal (`inet_pton`: dotted quad or RFC 4291 text, IPv6 optionally in brackets);
    /// nil for anything else. This is the test AsyncHTTPClient uses to connect to a URL host without resolving it.
    init?(literal: String) {
        guard let address = try? SocketAddress(ipAddress: Self.withoutBrackets(literal), port: 0) else { return nil }
        self.init(address)
    }

    /// The addresses of a numeric host as the system resolver reads it (`getaddrinfo` with `AI_NUMERICHOST`, which
    /// also takes `inet_aton` forms such as `127.1`, `0x7f.0.0.1` or `2130706433`); never asks DNS. Empty when
    /// `host` is not numeric.
    static func numeric(_ host: String) -> [IPAddress] {
        (try? lookUp(withoutBrackets(host), numericOnly: true)) ?? []
    }

    /// The addresses `getaddrinfo` gives for `host`: a blocking call that may ask DNS (unless `numericOnly`).
    static func lookUp(_ host: String, numericOnly: Bool) throws(WebImageError) -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_flags = numericOnly ? AI_NUMERICHOST : 0
        #if canImport(Darwin)
            hints.ai_socktype = SOCK_STREAM
        #else
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0, let list else {
            let reason = String(cString: gai_strerror(status))
            throw WebImageError(.connectionFailed, "could not resolve '\(host)': \(reason)")
        }
        defer { freeaddrinfo(list) }
        var addresses: [IPAddress] = []
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let current = entry {
            if let socket = current.pointee.ai_addr, let address = IPAddress(socket) {
                if !addresses.contains(address) { addresses.append(address) }
            }
            entry = current.pointee.ai_next
        }
        return addresses
    }

    /// The literal to connect to: `inet_ntop`'s text, without brackets.
    var description: String {
        switch self {
        case .v4(let number):
            var raw = in_addr(s_addr: number.bigEndian)
            return Self.text(of: &raw, family: AF_INET)
        case .v6(let number):
            var raw = in6_addr()
            withUnsafeMutableBytes(of: &raw) { bytes in
                for index in 0..<16 { bytes[index] = UInt8(truncatingIfNeeded: number >> (120 - 8 * index)) }
            }
            return Self.text(of: &raw, family: AF_INET6)
        }
    }

    private init?(_ socket: UnsafePointer<sockaddr>) {
        switch Int32(socket.pointee.sa_family) {
        case AF_INET:
            let address = UnsafeRawPointer(socket).loadUnaligned(as: sockaddr_in.self)
            self = .v4(UInt32(bigEndian: address.sin_addr.s_addr))
        case AF_INET6:
            let address = UnsafeRawPointer(socket).loadUnaligned(as: sockaddr_in6.self)
            self = .v6(Self.number(of: address.sin6_addr))
        default:
            return nil
        }
    }

    private static func number(of address: in6_addr) -> UInt128 {
        withUnsafeBytes(of: address) { bytes in bytes.reduce(UInt128(0)) { $0 << 8 | UInt128($1) } }
    }

    private static func text<Raw>(of raw: inout Raw, family: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let written = withUnsafePointer(to: &raw) { pointer in
            inet_ntop(family, pointer, &buffer, socklen_t(buffer.count))
        }
        guard written != nil else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func withoutBrackets(_ host: String) -> String {
        guard host.hasPrefix("["), host.hasSuffix("]"), host.count >= 2 else { return host }
        return String(host.dropFirst().dropLast())
    }
}
