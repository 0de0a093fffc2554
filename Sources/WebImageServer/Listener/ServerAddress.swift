import HummingbirdCore

/// Where ``ImageServer/makeApplication(address:onServerRunning:)`` listens: a TCP host and port, or a Unix domain
/// socket (imgproxy's `IMGPROXY_NETWORK=unix`, where `IMGPROXY_BIND` is the socket's path).
public struct ServerAddress: Sendable, Hashable, CustomStringConvertible {
    enum Kind: Hashable {
        case tcp(host: String, port: Int)
        case unixSocket(path: String)
    }

    let kind: Kind

    /// `host` (a name or an address literal) and `port`; port 0 picks a free one.
    public static func tcp(host: String, port: Int) -> ServerAddress {
        ServerAddress(kind: .tcp(host: host, port: port))
    }

    /// A Unix domain socket at `path`; a socket file already there is replaced.
    public static func unixSocket(path: String) -> ServerAddress { ServerAddress(kind: .unixSocket(path: path)) }

    /// `http://HOST:PORT` or `unix:PATH`, as `webimage serve` prints it.
    public var description: String {
        switch kind {
        case .tcp(let host, let port): "http://\(host):\(port)"
        case .unixSocket(let path): "unix:\(path)"
        }
    }

    /// Hummingbird's address.
    var bindAddress: BindAddress {
        switch kind {
        case .tcp(let host, let port): .hostname(host, port: port)
        case .unixSocket(let path): .unixDomainSocket(path: path)
        }
    }

    /// This address with the port a listener got, for a TCP address.
    func bound(port: Int?) -> ServerAddress {
        guard case .tcp(let host, let requested) = kind else { return self }
        return .tcp(host: host, port: port ?? requested)
    }

    /// The port, for a TCP address; `nil` for a socket.
    public var port: Int? {
        if case .tcp(_, let port) = kind { port } else { nil }
    }
}
