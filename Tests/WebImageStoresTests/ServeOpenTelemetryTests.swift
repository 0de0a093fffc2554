import AsyncHTTPClient
import Foundation
import Testing
import WebImageServer
import WebImageTesting

@testable import WebImageStores

/// imgproxy's `IMGPROXY_OPEN_TELEMETRY_*` variables on a real `webimage serve`: with `_ENABLE_METRICS` and
/// `_ENABLE_LOGS` the metrics (under the names `/metrics` shows) and the log lines (the request line included) go to
/// the collector beside the spans.
@Suite(
    .enabled(
        if: ProcessInfo.processInfo.environment["WEBIMAGE_NO_OTEL"] == nil,
        "webimage is built without grpc-swift (the sanitizer builds)")
) struct ServeOpenTelemetryTests {
    @Test func metricsAndLogsAreExportedWhenImgproxysVariablesAskForThem() async throws {
        let receiver = try await OTLPReceiver.start()
        let origin = try await Cluster.startOrigin(sources: 1)
        let home = try LocalProcess.temporaryDirectory("otel-signals")
        defer { try? FileManager.default.removeItem(at: home) }
        let executable = try #require(Cluster.executable, "webimage was not built next to the tests")
        let port = try LocalProcess.freePort()
        let node = try await LocalProcess.startAnswering(
            executable,
            [
                "serve", "--port", "\(port)", "--cache-dir", home.appendingPathComponent("cache").path,
                "--allow-loopback-sources",
            ],
            in: home, log: "serve",
            environment: [
                "IMGPROXY_OPEN_TELEMETRY_ENABLE": "true", "IMGPROXY_OPEN_TELEMETRY_ENABLE_METRICS": "true",
                "IMGPROXY_OPEN_TELEMETRY_ENABLE_LOGS": "true", "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.endpoint,
                "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json", "OTEL_METRIC_EXPORT_INTERVAL": "500",
            ],
            readyURL: "http://127.0.0.1:\(port)/health")
        let path = try ImageURLBuilder(signer: nil).url(
            options: "rs:fit:32:32", source: origin.url("/s0.jpg").absoluteString)
        let response = try await HTTPClient.shared.execute(
            HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)"), timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 16 << 20)
        #expect(await node.terminateOffPool() == 0)
        let exports = receiver.exports
        await receiver.stop()
        try await origin.shutdown()
        #expect(response.status.code == 200)
        let metrics = exports.filter { $0.signal == "metrics" }.map { String(decoding: $0.body, as: UTF8.self) }
        #expect(metrics.contains { $0.contains("\"webimage_requests_total\"") }, "\(exports.map(\.signal))")
        #expect(metrics.contains { $0.contains("\"requests_total\"") })
        let logs = exports.filter { $0.signal == "logs" }.map { String(decoding: $0.body, as: UTF8.self) }
        #expect(logs.contains { $0.contains("\"request\"") && $0.contains("\"source_host\"") }, "\(logs)")
        #expect(exports.contains { $0.signal == "traces" })
    }
}
