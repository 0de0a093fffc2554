extension IPAddress {
    /// The kind of network an address reaches, as far as ``SourceAddressPolicy`` cares.
    enum Scope: Hashable, Sendable, CustomStringConvertible {
        /// Anything not listed below: an address on the public internet.
        case global
        /// 127.0.0.0/8, ::1.
        case loopback
        /// RFC 1918, CGNAT 100.64.0.0/10, 192.0.0.0/24, benchmarking 198.18.0.0/15, ULA fc00::/7, site-local
        /// fec0::/10, local-use NAT64 64:ff9b:1::/48: networks that are not reachable from the internet.
        case privateUse
        /// 169.254.0.0/16 (cloud metadata services live at 169.254.169.254), fe80::/10.
        case linkLocal
        /// 224.0.0.0/4, ff00::/8.
        case multicast
        /// 0.0.0.0/8 ("this network"; connecting to it reaches the local host), ::.
        case unspecified
        /// 255.255.255.255.
        case broadcast
        /// 240.0.0.0/4 (but the broadcast address), the IPv6 discard prefix 100::/64.
        case reserved
        /// 192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24, 2001:db8::/32: never a real host.
        case documentation

        var description: String {
            switch self {
            case .global: "a public address"
            case .loopback: "a loopback address"
            case .privateUse: "a private address"
            case .linkLocal: "a link-local address"
            case .multicast: "a multicast address"
            case .unspecified: "an unspecified address"
            case .broadcast: "the broadcast address"
            case .reserved: "a reserved address"
            case .documentation: "a documentation address"
            }
        }
    }

    /// The network this address reaches by itself; see ``embeddedIPv4`` for the IPv4 hosts an IPv6 address leads to.
    var scope: Scope {
        switch self {
        case .v4(let number): Self.scope(v4: number)
        case .v6(let number): Self.scope(v6: number)
        }
    }

    /// The IPv4 addresses whose traffic this IPv6 address reaches: IPv4-mapped (::ffff:0:0/96), IPv4-translated
    /// (::ffff:0:0:0/96), IPv4-compatible (::/96 but :: and ::1), NAT64 (64:ff9b::/96), 6to4 (2002::/16), Teredo
    /// (2001::/32: the server and the client, whose address is the inverted last 32 bits) and ISATAP (an interface
    /// identifier of 0000:5efe or 0200:5efe followed by the IPv4 address, under any prefix). Empty for IPv4.
    var embeddedIPv4: [IPAddress] {
        guard case .v6(let number) = self else { return [] }
        let low = UInt32(truncatingIfNeeded: number)
        var embedded: [IPAddress] = []
        if Self.matches(number, 0, 96) && number > 1
            || Self.matches(number, 0xffff << 32, 96) || Self.matches(number, 0xffff << 48, 96)
            || Self.matches(number, 0x64_ff9b << 96, 96)
        {
            embedded.append(.v4(low))
        }
        if Self.matches(number, 0x2002 << 112, 16) {
            embedded.append(.v4(UInt32(truncatingIfNeeded: number >> 80)))
        }
        if Self.matches(number, 0x2001 << 112, 32) {
            embedded.append(.v4(UInt32(truncatingIfNeeded: number >> 64)))
            embedded.append(.v4(~low))
        }
        if UInt32(truncatingIfNeeded: number >> 32) & 0xfdff_ffff == 0x0000_5efe {
            embedded.append(.v4(low))
        }
        return embedded
    }

    private static func scope(v4 number: UInt32) -> Scope {
        func within(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32, _ length: Int) -> Bool {
            let prefix = a << 24 | b << 16 | c << 8 | d
            return number >> (32 - length) == prefix >> (32 - length)
        }
        if number == 0xffff_ffff { return .broadcast }
        if within(0, 0, 0, 0, 8) { return .unspecified }
        if within(127, 0, 0, 0, 8) { return .loopback }
        if within(169, 254, 0, 0, 16) { return .linkLocal }
        if within(224, 0, 0, 0, 4) { return .multicast }
        if within(240, 0, 0, 0, 4) { return .reserved }
        if within(192, 0, 2, 0, 24) || within(198, 51, 100, 0, 24) || within(203, 0, 113, 0, 24) {
            return .documentation
        }
        if within(10, 0, 0, 0, 8) || within(172, 16, 0, 0, 12) || within(192, 168, 0, 0, 16)
            || within(100, 64, 0, 0, 10) || within(192, 0, 0, 0, 24) || within(198, 18, 0, 0, 15)
        {
            return .privateUse
        }
        return .global
    }

    private static func scope(v6 number: UInt128) -> Scope {
        if number == 0 { return .unspecified }
        if number == 1 { return .loopback }
        if matches(number, 0xff00 << 112, 8) { return .multicast }
        if matches(number, 0xfe80 << 112, 10) { return .linkLocal }
        if matches(number, 0xfc00 << 112, 7) || matches(number, 0xfec0 << 112, 10)
            || matches(number, 0x64_ff9b_0001 << 80, 48)
        {
            return .privateUse
        }
        if matches(number, 0x2001_0db8 << 96, 32) { return .documentation }
        if matches(number, 0x0100 << 112, 64) { return .reserved }
        return .global
    }

    /// Whether the first `length` bits of `number` are those of `prefix`.
    private static func matches(_ number: UInt128, _ prefix: UInt128, _ length: Int) -> Bool {
        number >> (128 - length) == prefix >> (128 - length)
    }
}
