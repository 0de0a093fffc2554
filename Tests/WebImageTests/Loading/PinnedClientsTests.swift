import AsyncHTTPClient
import Testing

@testable import WebImage

@Suite("Loading: pinned clients")
struct PinnedClientsTests {
    static func key(_ host: String, _ address: String = "127.0.0.1") -> PinnedClients.Key {
        PinnedClients.Key(host: host, address: address, allowsInvalidCertificates: false)
    }

    @Test func oneClientPerHostAddressAndCertificateMode() async throws {
        let pinned = PinnedClients { _ in HTTPClient.Configuration() }
        let first = pinned.acquire(Self.key("a.test"))
        #expect(pinned.acquire(Self.key("a.test")) === first)
        #expect(pinned.acquire(Self.key("a.test", "127.0.0.2")) !== first)
        var insecure = Self.key("a.test")
        insecure.allowsInvalidCertificates = true
        #expect(pinned.acquire(insecure) !== first)
        #expect(pinned.count == 3)
        try await pinned.shutdown()
        #expect(pinned.count == 0)
    }

    @Test func idleClientsBeyondTheLimitAreShutDownOldestFirstAndBusyOnesNever() async throws {
        let pinned = PinnedClients(idleLimit: 1) { _ in HTTPClient.Configuration() }
        let busy = pinned.acquire(Self.key("busy.test"))
        for host in ["a.test", "b.test", "c.test"] {
            _ = pinned.acquire(Self.key(host))
            pinned.release(Self.key(host))
        }
        #expect(pinned.count == 2)
        #expect(pinned.acquire(Self.key("busy.test")) === busy)
        let kept = pinned.acquire(Self.key("c.test"))
        pinned.release(Self.key("c.test"))
        #expect(pinned.acquire(Self.key("c.test")) === kept)
        try await pinned.shutdown()
    }

    @Test func afterShutdownClientsAreMadeShutDown() async throws {
        let pinned = PinnedClients { _ in HTTPClient.Configuration() }
        try await pinned.shutdown()
        let late = pinned.acquire(Self.key("late.test"))
        #expect(pinned.count == 0)
        await #expect(throws: HTTPClientError.alreadyShutdown) { try await late.shutdown() }
    }
}
