/// Which network addresses ``HTTPImageLoader`` may connect to: the guard against server-side request forgery (SSRF),
/// for a server that fetches URLs its clients chose.
///
/// ``unrestricted``, the default, checks nothing and resolves nothing: AsyncHTTPClient connects as it always does.
/// Any other policy refuses, before a connection is started, every address in a class it does not allow:
///
/// | class | addresses | allowed by |
/// |---|---|---|
/// | loopback | 127.0.0.0/8, ::1 | ``allowsLoopback`` |
/// | private | 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, CGNAT 100.64.0.0/10, 192.0.0.0/24, 198.18.0.0/15, ULA fc00::/7, site-local fec0::/10, 64:ff9b:1::/48 | ``allowsPrivate`` |
/// | link-local | 169.254.0.0/16 (cloud metadata at 169.254.169.254), fe80::/10 | ``allowsLinkLocal`` |
/// | never | multicast (224.0.0.0/4, ff00::/8), unspecified (0.0.0.0/8, ::), broadcast 255.255.255.255, reserved 240.0.0.0/4 and 100::/64, documentation (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24, 2001:db8::/32) | nothing |
///
/// An IPv6 address that carries an IPv4 one (IPv4-mapped ::ffff:0:0/96, IPv4-translated, IPv4-compatible ::/96,
/// NAT64 64:ff9b::/96, 6to4 2002::/16, Teredo 2001::/32 with its server and its inverted client address, ISATAP
/// interface identifiers `0:5efe` and `200:5efe`) is refused when the IPv4 address is: `::ffff:127.0.0.1` is
/// loopback. A name is refused when any of its addresses is, so a name that also points inside cannot be used to
/// reach the inside by chance.
///
/// Where the check happens: at each connection, which is also each redirect hop, since the loader follows redirects
/// itself. A URL whose host is an IP literal (`inet_pton`) is checked as written, and AsyncHTTPClient connects to
/// exactly that literal. Any other host, including numeric spellings such as `0x7f.1`, `127.1` or `2130706433`, is
/// resolved by the loader with the system resolver (`getaddrinfo`, off the caller's thread, within the request's
/// deadline); every answer is checked, and the connection is then pinned to the first answer through an
/// `HTTPClient` whose `dnsOverride` maps the host to that literal, so AsyncHTTPClient never resolves the name
/// again and a DNS answer that changes between check and connect (DNS rebinding) is never used. TLS still sends the
/// host name as SNI and verifies the certificate against it. Pinned clients are kept per host, address and
/// certificate mode, so their connections are reused; idle ones beyond a small number are shut down.
///
/// Stricter than imgproxy, which allows private addresses by default; the server's defaults are ``publicOnly``.
public struct SourceAddressPolicy: Sendable, Hashable {
    /// Whether loopback addresses (127.0.0.0/8, ::1) may be connected to.
    public var allowsLoopback: Bool
    /// Whether private addresses (RFC 1918, CGNAT, ULA and the other non-internet ranges above) may be connected to.
    public var allowsPrivate: Bool
    /// Whether link-local addresses (169.254.0.0/16, including cloud metadata services, fe80::/10) may be
    /// connected to.
    public var allowsLinkLocal: Bool
    /// Set only by ``unrestricted``: with every class allowed it also skips the never-allowed classes and the
    /// resolution itself.
    private var isUnrestrictedPreset = false

    /// A policy allowing the given classes; the never-allowed classes stay refused even when all three are true.
    public init(allowsLoopback: Bool = false, allowsPrivate: Bool = false, allowsLinkLocal: Bool = false) {
        self.allowsLoopback = allowsLoopback
        self.allowsPrivate = allowsPrivate
        self.allowsLinkLocal = allowsLinkLocal
    }

    /// No check at all: the library default, for apps that load URLs they chose themselves.
    public static let unrestricted: SourceAddressPolicy = {
        var policy = SourceAddressPolicy(allowsLoopback: true, allowsPrivate: true, allowsLinkLocal: true)
        policy.isUnrestrictedPreset = true
        return policy
    }()

    /// Public internet addresses only: the setting for a server that fetches URLs from its clients.
    public static let publicOnly = SourceAddressPolicy()

    /// Whether connections are checked at all: false only for ``unrestricted`` (with every switch still on).
    var checksAddresses: Bool {
        !(isUnrestrictedPreset && allowsLoopback && allowsPrivate && allowsLinkLocal)
    }

    /// Why a connection to `address` is refused, or nil when it is allowed.
    func refusal(of address: IPAddress) -> String? {
        guard checksAddresses else { return nil }
        if !allows(address.scope) { return "\(address) is \(address.scope)" }
        for inner in address.embeddedIPv4 where !allows(inner.scope) {
            return "\(address) leads to \(inner), \(inner.scope)"
        }
        return nil
    }

    private func allows(_ scope: IPAddress.Scope) -> Bool {
        switch scope {
        case .global: true
        case .loopback: allowsLoopback
        case .privateUse: allowsPrivate
        case .linkLocal: allowsLinkLocal
        case .multicast, .unspecified, .broadcast, .reserved, .documentation: false
        }
    }
}
