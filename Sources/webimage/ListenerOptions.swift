import ArgumentParser
import WebImageServer

/// `webimage serve`'s listener: the network and the connection timeouts, as imgproxy's HTTP server has them.
struct ListenerOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "tcp, tcp4, tcp6, or unix, where --host (IMGPROXY_BIND) is the socket's path (default: tcp; "
                + "IMGPROXY_NETWORK).", valueName: "NETWORK"))
    var network: String?
    @Option(
        help: ArgumentHelp(
            "Seconds a client may take to send a request, else its connection is closed (default: 10; "
                + "IMGPROXY_READ_REQUEST_TIMEOUT)."))
    var readRequestTimeout: Double?
    @Option(
        help: ArgumentHelp(
            "Seconds a client may take to receive a response, else its connection is closed (default: 10; "
                + "IMGPROXY_WRITE_RESPONSE_TIMEOUT)."))
    var writeResponseTimeout: Double?
    @Option(
        help: ArgumentHelp(
            "Seconds an idle keep-alive connection is kept open; 0 closes every connection after its response "
                + "(default: 10; IMGPROXY_KEEP_ALIVE_TIMEOUT)."))
    var keepAliveTimeout: Double?
    @Flag(
        name: .customLong("so-reuseport"),
        help: "Bind the TCP port with SO_REUSEPORT, so several processes serve it (IMGPROXY_SO_REUSEPORT).")
    var soReuseport = false

    /// Sets `configuration.connectionTimeouts` and `reusesPort`.
    func apply(to configuration: inout ImageServerConfiguration) throws {
        var timeouts = configuration.connectionTimeouts
        if let seconds = try Settings.readRequestTimeout.resolve(readRequestTimeout) {
            timeouts.readRequest = try Self.duration(seconds, "--read-request-timeout")
        }
        if let seconds = try Settings.writeResponseTimeout.resolve(writeResponseTimeout) {
            timeouts.writeResponse = try Self.duration(seconds, "--write-response-timeout")
        }
        if let seconds = try Settings.keepAliveTimeout.resolve(keepAliveTimeout) {
            timeouts.keepAlive = try Self.duration(seconds, "--keep-alive-timeout")
        }
        configuration.connectionTimeouts = timeouts
        configuration.reusesPort = try Settings.soReuseport.resolve(switch: soReuseport)
    }

    /// Where to listen: `host` and `port` on the network of `--network`, or the socket at `host` for `unix`.
    ///
    /// - Throws: `ValidationError` for a network that is not one, a `unix` network without a path, or a host
    ///   literal of the other IP version than `tcp4` or `tcp6` asks for.
    func address(host: String?, port: Int) throws -> ServerAddress {
        let network = try Settings.network.resolve(parsing: network) ?? .tcp
        switch network {
        case .unix:
            guard let path = host, !path.isEmpty else {
                throw ValidationError("--network unix needs the socket's path in --host or IMGPROXY_BIND")
            }
            return .unixSocket(path: path)
        case .tcp, .tcp4:
            let host = host ?? "127.0.0.1"
            if network == .tcp4, host.contains(":") {
                throw ValidationError("--network tcp4: \(host) is an IPv6 address")
            }
            return .tcp(host: host, port: port)
        case .tcp6:
            // imgproxy's `:PORT` (every interface) is `0.0.0.0` for the other networks.
            let host = host.map { $0 == "0.0.0.0" ? "::" : $0 } ?? "::1"
            if host.split(separator: ".").count == 4, host.allSatisfy({ $0.isNumber || $0 == "." }) {
                throw ValidationError("--network tcp6: \(host) is an IPv4 address")
            }
            return .tcp(host: host, port: port)
        }
    }

    /// `seconds` as a duration; the server's check names a value out of range.
    private static func duration(_ seconds: Double, _ flag: String) throws -> Duration {
        guard seconds.isFinite, seconds >= 0, seconds <= 86_400 else {
            throw ValidationError("\(flag) must be between 0 and 86400 seconds")
        }
        return ServeCommand.duration(seconds)
    }
}
