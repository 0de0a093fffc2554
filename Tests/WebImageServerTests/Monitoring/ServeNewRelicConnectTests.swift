import AsyncHTTPClient
import Foundation
import Testing
import WebImageTesting

/// `webimage serve` with imgproxy's New Relic variables alone (no account of ours): the account comes from a fake
/// collector's `connect`, made in the background at start; with a collector that fails, the server serves.
@Suite(.serialized) struct ServeNewRelicConnectTests {
    static func environment(_ fake: FakeNewRelicCollector) -> [String: String] {
        [
            "IMGPROXY_NEW_RELIC_KEY": "license", "IMGPROXY_NEW_RELIC_APP_NAME": "images",
            "WEBIMAGE_NEW_RELIC_HOST": fake.url.absoluteString, "IMGPROXY_NEW_RELIC_PROPAGATE_EXTERNAL": "true",
        ]
    }

    @Test func theCollectorsAccountGetsTheErrorEventsAndTheHeaders() async throws {
        let origin = TestImageServer()
        try await origin.start()
        defer { Task { try? await origin.shutdown() } }
        let fake = try await FakeNewRelicCollector()
        defer { fake.stop() }
        let errors = try await ServeLifecycleTests.serve(environment: Self.environment(fake), arguments: ["--no-cache"])
        { base in
            // The connect runs beside the server: requests fail until an event for the account has arrived and an
            // origin has been sent the account's trace state.
            let done = {
                fake.requests.contains { $0.path.hasSuffix("/events") }
                    && origin.stats.values(of: "tracestate", for: "/status/404").contains { $0.hasPrefix("99@nr=") }
            }
            for round in 0..<150 where !done() {
                let missing = base + "/insecure/rs:fit:8:8/plain/" + origin.url("/status/404?\(round)").absoluteString
                let failed = try await HTTPClient.shared.execute(HTTPClientRequest(url: missing), timeout: .seconds(30))
                #expect(failed.status == .notFound)
                _ = try await failed.body.collect(upTo: 1 << 20)
                try await Task.sleep(for: .milliseconds(200))
            }
        }
        #expect(fake.calls("preconnect").count == 1)
        #expect(fake.calls("connect").count == 1)
        let events = fake.requests.filter { $0.path.hasSuffix("/events") }
        #expect(!events.isEmpty, "\(errors)")
        #expect(events.allSatisfy { $0.path == "/v1/accounts/5678/events" })
        let body = try #require(events.first.map { Data($0.body) })
        let posted = try #require(try JSONSerialization.jsonObject(with: body) as? [[String: Any]])
        #expect(posted.first?["eventType"] as? String == "TransactionError")
        #expect(errors.contains("New Relic connected"), "\(errors)")
        #expect(!errors.contains("license_key"), "\(errors)")
        // A failed request's origin fetch carried the account's trace state.
        let states = origin.stats.values(of: "tracestate", for: "/status/404")
        #expect(states.contains { $0.hasPrefix("99@nr=0-0-5678-4321-") }, "\(states)")
    }

    @Test func aCollectorThatFailsIsLoggedAndTheServerServes() async throws {
        let origin = TestImageServer()
        try await origin.start()
        defer { Task { try? await origin.shutdown() } }
        let fake = try await FakeNewRelicCollector(answers: [
            "preconnect": [.init(status: .internalServerError, body: "")], "connect": [],
        ])
        defer { fake.stop() }
        let errors = try await ServeLifecycleTests.serve(environment: Self.environment(fake), arguments: ["--no-cache"])
        { base in
            let url =
                base + "/insecure/rs:fit:8:8/plain/"
                + origin.url("/fixtures/corpus/images/gen_alpha.png").absoluteString
            let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
            #expect(response.status == .ok)
            _ = try await response.body.collect(upTo: 1 << 20)
            _ = await NewRelicCollectorTests.poll { !fake.calls("preconnect").isEmpty }
        }
        // The failure is logged on the process's standard error (the collector's tests read the line).
        #expect(fake.calls("connect").isEmpty)
        #expect(!errors.contains("license_key"), "\(errors)")
    }
}
