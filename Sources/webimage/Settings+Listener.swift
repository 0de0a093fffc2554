import WebImageServer

/// The listener rows of ``Settings``: the network (imgproxy's `IMGPROXY_NETWORK`, with `unix` making
/// `IMGPROXY_BIND` a socket path) and the connection timeouts (`IMGPROXY_READ_REQUEST_TIMEOUT`,
/// `IMGPROXY_WRITE_RESPONSE_TIMEOUT`, `IMGPROXY_KEEP_ALIVE_TIMEOUT`), in whole seconds as imgproxy reads them, and
/// `IMGPROXY_SO_REUSEPORT`.
extension Settings {
    static let network = Setting<ListenNetwork>("network", .network, imgproxy: ["IMGPROXY_NETWORK"])
    static let readRequestTimeout = Setting<Double>(
        "read-request-timeout", .number, imgproxy: ["IMGPROXY_READ_REQUEST_TIMEOUT"], imgproxyParser: .seconds)
    static let writeResponseTimeout = Setting<Double>(
        "write-response-timeout", .number, imgproxy: ["IMGPROXY_WRITE_RESPONSE_TIMEOUT"], imgproxyParser: .seconds)
    static let keepAliveTimeout = Setting<Double>(
        "keep-alive-timeout", .number, imgproxy: ["IMGPROXY_KEEP_ALIVE_TIMEOUT"], imgproxyParser: .seconds)
    static let soReuseport = Setting<Bool>("so-reuseport", .boolean, imgproxy: ["IMGPROXY_SO_REUSEPORT"])

    /// The listener settings, for ``all``.
    static let listener: [any SettingVariables] = [
        network, readRequestTimeout, writeResponseTimeout, keepAliveTimeout, soReuseport,
    ]
}

/// imgproxy's `IMGPROXY_NETWORK`: what `IMGPROXY_BIND` names.
enum ListenNetwork: String, Sendable, CaseIterable {
    /// A host and port, IPv4 or IPv6 (Go's `tcp`).
    case tcp
    /// A host and port, IPv4 only.
    case tcp4
    /// A host and port, IPv6 only.
    case tcp6
    /// A Unix domain socket; the bind address is its path.
    case unix

    /// The network the environment names (`WEBIMAGE_NETWORK`, then `IMGPROXY_NETWORK`), for reading
    /// `IMGPROXY_BIND` as a path or an address; `tcp` when neither does or the value is not a network.
    static var fromEnvironment: ListenNetwork {
        (Env.value("WEBIMAGE_NETWORK") ?? Env.value("IMGPROXY_NETWORK")).flatMap { Self(rawValue: $0.lowercased()) }
            ?? .tcp
    }
}

extension ValueParser<ListenNetwork> {
    /// `tcp`, `tcp4`, `tcp6` or `unix`, in any case.
    static var network: Self {
        Self(expected: "tcp, tcp4, tcp6 or unix") { ListenNetwork(rawValue: $0.lowercased()) }
    }
}

extension ValueParser<Double> {
    /// Whole seconds, as imgproxy reads its durations (Go's `strconv.Atoi`).
    static var seconds: Self {
        Self(expected: "a whole number of seconds") { Int($0.trimmingCharacters(in: .whitespaces)).map(Double.init) }
    }
}

extension BindAddress {
    /// `IMGPROXY_BIND`: a socket path when the environment's network is `unix`, else as ``parser`` reads it.
    static var imgproxyParser: ValueParser<BindAddress> {
        let address = parser
        return ValueParser(expected: address.expected) { text in
            ListenNetwork.fromEnvironment == .unix ? BindAddress(host: text, port: 0) : address.parse(text)
        }
    }
}
