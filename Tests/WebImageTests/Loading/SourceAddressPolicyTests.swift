import Testing

@testable import WebImage

@Suite("Loading: SourceAddressPolicy classification")
struct SourceAddressPolicyTests {
    typealias Scope = IPAddress.Scope

    /// The first and last address of every IPv4 range, and their neighbours outside it.
    static let v4Edges: [(String, Scope)] = [
        ("0.0.0.0", .unspecified), ("0.255.255.255", .unspecified), ("1.0.0.0", .global),
        ("9.255.255.255", .global), ("10.0.0.0", .privateUse), ("10.255.255.255", .privateUse), ("11.0.0.0", .global),
        ("100.63.255.255", .global), ("100.64.0.0", .privateUse), ("100.127.255.255", .privateUse),
        ("100.128.0.0", .global), ("126.255.255.255", .global), ("127.0.0.0", .loopback), ("127.0.0.1", .loopback),
        ("127.255.255.255", .loopback), ("128.0.0.0", .global), ("169.253.255.255", .global),
        ("169.254.0.0", .linkLocal), ("169.254.169.254", .linkLocal), ("169.254.255.255", .linkLocal),
        ("169.255.0.0", .global), ("172.15.255.255", .global), ("172.16.0.0", .privateUse),
        ("172.31.255.255", .privateUse), ("172.32.0.0", .global), ("191.255.255.255", .global),
        ("192.0.0.0", .privateUse), ("192.0.0.255", .privateUse), ("192.0.1.0", .global),
        ("192.0.2.0", .documentation), ("192.0.2.255", .documentation), ("192.0.3.0", .global),
        ("192.167.255.255", .global), ("192.168.0.0", .privateUse), ("192.168.255.255", .privateUse),
        ("192.169.0.0", .global), ("198.17.255.255", .global), ("198.18.0.0", .privateUse),
        ("198.19.255.255", .privateUse), ("198.20.0.0", .global), ("198.51.99.255", .global),
        ("198.51.100.0", .documentation), ("198.51.100.255", .documentation), ("198.51.101.0", .global),
        ("203.0.112.255", .global), ("203.0.113.0", .documentation), ("203.0.113.255", .documentation),
        ("203.0.114.0", .global), ("223.255.255.255", .global), ("224.0.0.0", .multicast),
        ("239.255.255.255", .multicast), ("240.0.0.0", .reserved), ("255.255.255.254", .reserved),
        ("255.255.255.255", .broadcast), ("8.8.8.8", .global), ("93.184.216.34", .global),
    ]

    /// The same for IPv6.
    static let v6Edges: [(String, Scope)] = [
        ("::", .unspecified), ("::1", .loopback), ("[::1]", .loopback), ("::2", .global),
        ("2001:4860:4860::8888", .global), ("fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", .global),
        ("fc00::", .privateUse), ("fd00:ec2::254", .privateUse),
        ("fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", .privateUse),
        ("fe00::", .global), ("fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff", .global), ("fe80::", .linkLocal),
        ("fe80::1", .linkLocal), ("febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff", .linkLocal), ("fec0::", .privateUse),
        ("feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", .privateUse), ("ff00::", .multicast), ("ff02::1", .multicast),
        ("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", .multicast), ("2001:db7:ffff:ffff:ffff:ffff:ffff:ffff", .global),
        ("2001:db8::", .documentation), ("2001:db8:ffff:ffff:ffff:ffff:ffff:ffff", .documentation),
        ("2001:db9::", .global), ("ff::", .global), ("100::", .reserved), ("100::ffff:ffff:ffff:ffff", .reserved),
        ("100:0:0:1::", .global), ("64:ff9b:1::", .privateUse), ("64:ff9b:1:ffff:ffff:ffff:ffff:ffff", .privateUse),
        ("64:ff9b:2::", .global),
    ]

    @Test(arguments: v4Edges + v6Edges)
    func scopeOfLiteral(text: String, scope: Scope) throws {
        let address = try #require(IPAddress(literal: text))
        #expect(address.scope == scope, "\(text)")
    }

    /// IPv6 addresses that carry an IPv4 address, and that address.
    static let embedding: [(String, [String])] = [
        ("::ffff:127.0.0.1", ["127.0.0.1"]), ("::ffff:7f00:1", ["127.0.0.1"]), ("::ffff:8.8.8.8", ["8.8.8.8"]),
        ("::ffff:0:10.0.0.1", ["10.0.0.1"]), ("::127.0.0.1", ["127.0.0.1"]), ("::0.0.0.2", ["0.0.0.2"]),
        ("::8.8.8.8", ["8.8.8.8"]), ("64:ff9b::127.0.0.1", ["127.0.0.1"]), ("64:ff9b::808:808", ["8.8.8.8"]),
        ("2002:7f00:1::", ["127.0.0.1"]), ("2002:a9fe:a9fe::1", ["169.254.169.254"]), ("2002:808:808::1", ["8.8.8.8"]),
        // Teredo (RFC 4380): server 65.54.227.120, client the inverse of the last 32 bits.
        ("2001:0:4136:e378:8000:63bf:80ff:fffe", ["65.54.227.120", "127.0.0.1"]),
        ("2001:0:4136:e378:8000:63bf:f7f7:f7f7", ["65.54.227.120", "8.8.8.8"]),
        ("2001:0:a00:1:8000:63bf:f7f7:f7f7", ["10.0.0.1", "8.8.8.8"]),
        // ISATAP interface identifiers, local (0000:5efe) and universal (0200:5efe).
        ("2001:4860::5efe:7f00:1", ["127.0.0.1"]), ("2001:4860::200:5efe:a9fe:a9fe", ["169.254.169.254"]),
        ("2001:4860::5efe:808:808", ["8.8.8.8"]), ("fe80::5efe:a00:1", ["10.0.0.1"]),
        ("::1", []), ("::", []), ("2001:4860:4860::8888", []), ("fd00::7f00:1", []), ("2001:4860::100:5efe:0:1", []),
    ]

    @Test(arguments: embedding)
    func embeddedIPv4(text: String, expected: [String]) throws {
        let address = try #require(IPAddress(literal: text))
        #expect(address.embeddedIPv4 == expected.compactMap { IPAddress(literal: $0) }, "\(text)")
    }

    /// Whether ``SourceAddressPolicy/publicOnly`` allows each address, both families, embedded forms included.
    static let publicOnly: [(String, Bool)] = [
        ("8.8.8.8", true), ("2001:4860:4860::8888", true), ("::ffff:8.8.8.8", true), ("2002:808:808::1", true),
        ("64:ff9b::808:808", true), ("2001:0:4136:e378:8000:63bf:f7f7:f7f7", true),
        ("127.0.0.1", false), ("::1", false), ("10.1.2.3", false), ("100.100.100.200", false),
        ("169.254.169.254", false), ("fd00:ec2::254", false), ("fe80::1", false), ("::ffff:127.0.0.1", false),
        ("::ffff:7f00:1", false), ("::ffff:169.254.169.254", false), ("::127.0.0.1", false),
        ("64:ff9b::10.0.0.1", false), ("2002:c0a8:101::1", false), ("2001:0:4136:e378:8000:63bf:80ff:fffe", false),
        ("2001:0:a00:1:8000:63bf:f7f7:f7f7", false), ("2001:4860::5efe:a00:1", false), ("0.0.0.0", false),
        ("::", false), ("224.0.0.1", false), ("ff02::1", false), ("255.255.255.255", false), ("240.0.0.1", false),
    ]

    @Test(arguments: publicOnly)
    func publicOnlyPolicy(text: String, allowed: Bool) throws {
        let address = try #require(IPAddress(literal: text))
        let refusal = SourceAddressPolicy.publicOnly.refusal(of: address)
        #expect((refusal == nil) == allowed, "\(text): \(refusal ?? "allowed")")
    }

    @Test func eachSwitchAllowsItsClassOnly() throws {
        func allowed(_ policy: SourceAddressPolicy, _ text: String) throws -> Bool {
            try policy.refusal(of: #require(IPAddress(literal: text))) == nil
        }
        let loopback = SourceAddressPolicy(allowsLoopback: true)
        #expect(try allowed(loopback, "127.0.0.1") && allowed(loopback, "::1") && allowed(loopback, "::ffff:127.0.0.1"))
        #expect(try !allowed(loopback, "10.0.0.1") && !allowed(loopback, "169.254.169.254"))
        let privateUse = SourceAddressPolicy(allowsPrivate: true)
        #expect(
            try allowed(privateUse, "10.0.0.1") && allowed(privateUse, "fd00::1") && allowed(privateUse, "100.64.0.1"))
        #expect(try !allowed(privateUse, "127.0.0.1") && !allowed(privateUse, "fe80::1"))
        let linkLocal = SourceAddressPolicy(allowsLinkLocal: true)
        #expect(try allowed(linkLocal, "169.254.169.254") && allowed(linkLocal, "fe80::1"))
        #expect(try !allowed(linkLocal, "192.168.1.1") && !allowed(linkLocal, "::1"))
    }

    @Test func neverAllowedClassesStayRefusedWithEverySwitchOn() throws {
        let everything = SourceAddressPolicy(allowsLoopback: true, allowsPrivate: true, allowsLinkLocal: true)
        #expect(everything != .unrestricted)
        #expect(everything.checksAddresses)
        for text in [
            "0.0.0.0", "0.1.2.3", "::", "224.0.0.1", "ff02::1", "255.255.255.255", "240.0.0.1", "100::1",
            "192.0.2.1", "2001:db8::1", "::ffff:0.0.0.0", "::ffff:224.0.0.1", "2002:e000:1::1",
        ] {
            let address = try #require(IPAddress(literal: text))
            #expect(everything.refusal(of: address) != nil, "\(text)")
            #expect(SourceAddressPolicy.unrestricted.refusal(of: address) == nil, "\(text)")
        }
        #expect(everything.refusal(of: try #require(IPAddress(literal: "127.0.0.1"))) == nil)
    }

    @Test func unrestrictedChecksNothingUntilASwitchIsTurnedOff() {
        #expect(!SourceAddressPolicy.unrestricted.checksAddresses)
        #expect(HTTPImageLoader.Configuration().addressPolicy == .unrestricted)
        var policy = SourceAddressPolicy.unrestricted
        policy.allowsPrivate = false
        #expect(policy.checksAddresses)
        #expect(SourceAddressPolicy.publicOnly.checksAddresses)
        #expect(SourceAddressPolicy.publicOnly == SourceAddressPolicy())
        let publicOnly = SourceAddressPolicy.publicOnly
        #expect(!publicOnly.allowsLoopback && !publicOnly.allowsPrivate && !publicOnly.allowsLinkLocal)
    }

    /// Numeric spellings that `inet_pton` rejects but the system resolver reads, and what they connect to.
    static let spellings: [(String, [String])] = [
        ("0x7f.1", ["127.0.0.1"]), ("2130706433", ["127.0.0.1"]), ("127.1", ["127.0.0.1"]),
        ("0177.0.0.1", ["127.0.0.1"]), ("0x7f000001", ["127.0.0.1"]), ("0xa9.0xfe.0xa9.0xfe", ["169.254.169.254"]),
        ("10.1", ["10.0.0.1"]), ("[::ffff:127.0.0.1]", ["::ffff:127.0.0.1"]), ("[::ffff:7f00:1]", ["::ffff:127.0.0.1"]),
        ("127.0.0.1", ["127.0.0.1"]), ("localhost", []), ("example.com", []), ("", []),
    ]

    @Test(arguments: spellings)
    func numericSpellingsReadAsTheResolverReadsThem(text: String, expected: [String]) {
        #expect(IPAddress.numeric(text) == expected.compactMap { IPAddress(literal: $0) }, "\(text)")
    }

    @Test func literalsAreStrictAndPrintAsConnected() throws {
        for text in ["0x7f.1", "2130706433", "127.1", "localhost", "", "[", "1.2.3.4.5", "::ffff:127.0.0.1%"] {
            #expect(IPAddress(literal: text) == nil, "\(text)")
        }
        #expect(try #require(IPAddress(literal: "[::ffff:7f00:1]")).description == "::ffff:127.0.0.1")
        #expect(try #require(IPAddress(literal: "2001:DB8:0::1")).description == "2001:db8::1")
        #expect(try #require(IPAddress(literal: "10.0.0.1")).description == "10.0.0.1")
        #expect(IPAddress(literal: "255.255.255.255") == .v4(0xffff_ffff))
        #expect(IPAddress(literal: "::1") == .v6(1))
    }
}
