import Foundation
import Testing

/// `--max-clients` (imgproxy's `IMGPROXY_MAX_CLIENTS`) end to end: past the limit a connection waits to be accepted
/// until an open one closes, and is then answered.
@Suite("Serve: --max-clients")
struct ServeMaxClientsTests {
    /// Also on the listener of `IMGPROXY_SO_REUSEPORT`.
    @Test(arguments: ["false", "true"])
    func aConnectionPastTheLimitWaitsUntilOneCloses(reusePort: String) async throws {
        _ = try await ServeLifecycleTests.serve(
            environment: ["IMGPROXY_MAX_CLIENTS": "1", "IMGPROXY_SO_REUSEPORT": reusePort]
        ) { base in
            let port = try #require(Int(base.split(separator: ":").last ?? ""))
            let first = try SlowReader(port: port, path: "/health")
            defer { first.reset() }
            let answered = await ServeLifecycleTests.offPool { first.read(4096, within: 10_000) }
            #expect((answered ?? 0) > 0, "the first connection is answered")
            let second = try SlowReader(port: port, path: "/health")
            defer { second.reset() }
            let early = await ServeLifecycleTests.offPool { second.read(4096, within: 700) }
            #expect(early == nil, "the second connection waits while the first is open")
            first.reset()
            let late = await ServeLifecycleTests.offPool { second.read(4096, within: 10_000) }
            #expect((late ?? 0) > 0, "and is answered once the first has closed")
        }
    }
}
