import AsyncHTTPClient
import Foundation
import Testing

/// `webimage serve` with imgproxy's `IMGPROXY_PROMETHEUS_BIND` and `IMGPROXY_PROMETHEUS_NAMESPACE`: the metrics on an
/// address of their own, under the namespace, as an imgproxy deployment scrapes them.
@Suite(.serialized) struct ServeMetricsBindTests {
    private static func get(_ url: String) async throws -> (status: Int, body: String) {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 4 << 20)
        return (Int(response.status.code), String(buffer: body))
    }

    @Test func theMetricsAnswerOnTheirOwnAddressUnderTheNamespace() async throws {
        let executable = try #require(Cluster.executable, "webimage was not built next to the tests")
        let origin = try await Cluster.startOrigin(sources: 1)
        let home = try LocalProcess.temporaryDirectory("metrics-bind")
        defer { try? FileManager.default.removeItem(at: home) }
        let (port, metricsPort) = (try LocalProcess.freePort(), try LocalProcess.freePort())
        let node = try await LocalProcess.startAnswering(
            executable,
            [
                "serve", "--port", "\(port)", "--cache-dir", home.appendingPathComponent("cache").path,
                "--allow-loopback-sources",
            ],
            in: home, log: "serve",
            environment: [
                "IMGPROXY_PROMETHEUS_BIND": "127.0.0.1:\(metricsPort)", "IMGPROXY_PROMETHEUS_NAMESPACE": "imgproxy",
            ],
            readyURL: "http://127.0.0.1:\(port)/health")
        let image = try await Self.get("http://127.0.0.1:\(port)/insecure/w:20/plain/\(origin.url("/s0.jpg"))")
        let scrape = try await Self.get("http://127.0.0.1:\(metricsPort)/metrics")
        let imageOnMetricsPort = try await Self.get("http://127.0.0.1:\(metricsPort)/insecure/w:20/plain/http://a")
        #expect(node.terminate() == 0)
        try await origin.shutdown()
        let log = (try? String(contentsOf: home.appendingPathComponent("serve.log"), encoding: .utf8)) ?? ""
        #expect(image.status == 200)
        #expect(scrape.status == 200)
        #expect(scrape.body.contains("\nimgproxy_requests_total 1\n"), "\(scrape.body.prefix(3000))")
        #expect(scrape.body.contains("imgproxy_status_codes_total{status=\"200\"} 1"))
        #expect(scrape.body.contains("imgproxy_webimage_origin_fetches_total 1"))
        #expect(imageOnMetricsPort.status == 404, "the metrics address serves nothing else")
        #expect(!log.contains("PROMETHEUS"), "neither variable is named as unsupported: \(log)")
    }
}
