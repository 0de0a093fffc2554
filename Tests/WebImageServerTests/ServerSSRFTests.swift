import Foundation
import HummingbirdTesting
import Testing
import WebImage
import WebImageServer

@Suite("Server: source addresses (SSRF)")
struct ServerSSRFTests {
    @Test func loopbackIsRefusedByDefaultAndTheServerKeepsAnswering() async throws {
        try await ServerHarness.run(configure: { $0.addressPolicy = .publicOnly }) { harness in
            for path in [
                harness.url("w:10", "/geometry.png"),
                "/insecure/plain/http:%2F%2F127.1:\(harness.origin.port)%2Fgeometry.png",
                "/insecure/plain/http:%2F%2F[::ffff:127.0.0.1]:\(harness.origin.port)%2Fgeometry.png",
                "/insecure/plain/http:%2F%2F169.254.169.254%2Flatest%2Fmeta-data",
                "/insecure/plain/http:%2F%2F10.0.0.1%2Fa.png",
                "/insecure/plain/http:%2F%2F0.0.0.0:\(harness.origin.port)%2Fgeometry.png",
            ] {
                let response = try await harness.get(path)
                ServerStatusTests.expectError(response, 404)
            }
            #expect(harness.origin.stats.total == 0, "no connection reached the origin")
            #expect(try await harness.get("/health").status == .ok)
        }
    }

    @Test func redirectsToRefusedAddressesAreRefused() async throws {
        // The origin is reachable (loopback allowed), but it redirects to a link-local and a private address.
        try await ServerHarness.run { harness in
            for target in [
                "http://169.254.169.254/latest/meta-data", "http://192.168.0.1/a.png", "http://[fe80::1]/a.png",
            ] {
                let escaped = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? target
                let response = try await harness.get(harness.url("", "/redirect/1?to=\(escaped)"))
                ServerStatusTests.expectError(response, 404)
            }
            #expect(try await harness.get(harness.url("w:10", "/geometry.png")).status == .ok)
        }
    }
}
