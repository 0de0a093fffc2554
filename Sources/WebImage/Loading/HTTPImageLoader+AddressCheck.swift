import AsyncHTTPClient
import Foundation
import NIOCore

extension HTTPImageLoader {
    /// The client that makes one HTTP exchange, and the pinned client to hand back when it is over.
    struct Route {
        var client: HTTPClient
        var pinned: PinnedClients.Key?
    }

    /// Checks where `request` would connect under ``Configuration/addressPolicy`` and returns the client that
    /// connects exactly there; see ``SourceAddressPolicy`` for the design. With ``SourceAddressPolicy/unrestricted``
    /// it returns `client` untouched, without resolving anything. Call ``finish(_:)`` when the exchange is over.
    func route(
        _ request: HTTPClient.Request, url: URL, client: HTTPClient, allowsInvalidCertificates: Bool,
        deadline: NIODeadline
    ) async throws -> Route {
        let policy = configuration.addressPolicy
        guard policy.checksAddresses else { return Route(client: client, pinned: nil) }
        // `request.host` is the host AsyncHTTPClient connects to, or looks up in `dnsOverride`.
        let host = request.host
        if let literal = IPAddress(literal: host) {
            try Self.check(literal, of: host, policy: policy, url: url)
            return Route(client: client, pinned: nil)
        }
        let addresses: [IPAddress]
        do {
            addresses = try await resolver.addresses(of: host, deadline: deadline)
        } catch {
            throw Self.map(error, url: url)
        }
        for address in addresses { try Self.check(address, of: host, policy: policy, url: url) }
        let key = PinnedClients.Key(
            host: host, address: addresses[0].description, allowsInvalidCertificates: allowsInvalidCertificates)
        return Route(client: pinnedClients.acquire(key), pinned: key)
    }

    /// Ends the exchange made through `route`.
    func finish(_ route: Route) {
        if let key = route.pinned { pinnedClients.release(key) }
    }

    private static func check(_ address: IPAddress, of host: String, policy: SourceAddressPolicy, url: URL) throws {
        guard let reason = policy.refusal(of: address) else { return }
        let subject = IPAddress(literal: host) == address ? "" : "'\(host)' resolves to "
        throw WebImageError(
            .forbiddenSource, "\(subject)\(reason), which the source address policy refuses", url: url)
    }
}
