import AsyncHTTPClient
import Foundation
import Testing
import WebImageTesting

/// Datadog, New Relic and OpenTelemetry tracing together on a real `webimage serve`, as imgproxy runs its monitors
/// side by side: each request is a trace at each (a local fake Datadog agent, New Relic Trace API and OTLP/HTTP
/// collector record them), and each vendor's `_PROPAGATE_EXTERNAL` sends that vendor's headers alone to the origin.
@Suite(.serialized) struct ServeTracersTests {
    /// A tracing vendor, by its `_PROPAGATE_EXTERNAL` variable.
    enum Vendor: String, Sendable, CaseIterable {
        case datadog = "IMGPROXY_DATADOG_PROPAGATE_EXTERNAL"
        case newRelic = "IMGPROXY_NEW_RELIC_PROPAGATE_EXTERNAL"
        case openTelemetry = "IMGPROXY_OPEN_TELEMETRY_PROPAGATE_EXTERNAL"
    }

    /// One span of an OTLP JSON export: its trace id in hexadecimal and its name.
    struct OTLPSpan {
        let traceID: String
        let name: String
    }

    static let image = "/fixtures/corpus/images/gen_alpha.png"
    /// Stages of a request every OpenTelemetry trace of a processed image has.
    static let otlpStages: Set<String> = ["options", "source fetch", "processing"]

    /// The variables of a server tracing to the three fakes, with `propagating`'s headers going to origins.
    static func environment(agent: Int, newRelic: Int, collector: Int, propagating: Vendor?) -> [String: String] {
        var environment = [
            "IMGPROXY_DATADOG_ENABLE": "true", "DD_AGENT_HOST": "127.0.0.1", "DD_TRACE_AGENT_PORT": String(agent),
            "IMGPROXY_NEW_RELIC_KEY": "license", "WEBIMAGE_NEW_RELIC_HOST": "http://127.0.0.1:\(newRelic)",
            "WEBIMAGE_NEW_RELIC_ACCOUNT_ID": "1234", "IMGPROXY_OPEN_TELEMETRY_ENABLE": "true",
            "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:\(collector)", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json",
            "OTEL_BSP_SCHEDULE_DELAY": "100",
        ]
        for vendor in Vendor.allCases { environment[vendor.rawValue] = vendor == propagating ? "true" : "false" }
        return environment
    }

    @Test(arguments: [Vendor?.none, .datadog, .newRelic, .openTelemetry])
    func everyTracerGetsTheRequestAndOriginsOnlyThePropagatingOnesHeaders(propagating: Vendor?) async throws {
        let origin = TestImageServer()
        try await origin.start()
        defer { Task { try? await origin.shutdown() } }
        let (agent, newRelic, collector) = (
            try await RecordingEndpoint(), try await RecordingEndpoint(), try await RecordingEndpoint()
        )
        defer {
            agent.stop()
            newRelic.stop()
            collector.stop()
        }
        let environment = Self.environment(
            agent: agent.port, newRelic: newRelic.port, collector: collector.port, propagating: propagating)
        let log = try await ServeLifecycleTests.serve(environment: environment, arguments: ["--no-cache"]) { base in
            let url = base + "/insecure/rs:fit:8:8/plain/" + origin.url(Self.image).absoluteString
            let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
            #expect(response.status == .ok)
            _ = try await response.body.collect(upTo: 1 << 20)
            _ = await agent.requests { ServeMonitoringTests.spans($0).contains { $0["name"]?.text == "request" } }
            _ = await newRelic.requests { requests in
                ServeNewRelicTests.spans(requests).contains { $0["name"] as? String == "WebTransaction/Go/request" }
            }
            // Each vendor's request span ends last; OpenTelemetry's are waited for by the names the test reads.
            _ = await collector.requests { Set(Self.spans($0).map(\.name)).isSuperset(of: Self.otlpStages) }
        }

        // A trace at each vendor, under its names.
        let datadogSpans = ServeMonitoringTests.spans(agent.requests)
        let datadogRoot = try #require(datadogSpans.first { $0["name"]?.text == "request" }, "\(log)")
        let datadogTrace = try #require(datadogRoot["trace_id"]?.number)
        let datadogNames = Set(
            datadogSpans.filter { $0["trace_id"]?.number == datadogTrace }.compactMap { $0["name"]?.text })
        #expect(datadogNames.isSuperset(of: ["request", "downloading_source_image", "processing_image"]))
        let newRelicSpans = ServeNewRelicTests.spans(newRelic.requests)
        let transaction = try #require(
            newRelicSpans.first { $0["name"] as? String == "WebTransaction/Go/request" }, "\(log)")
        let newRelicTrace = try #require(transaction["trace.id"] as? String)
        let newRelicNames = Set(
            newRelicSpans.filter { $0["trace.id"] as? String == newRelicTrace }.compactMap { $0["name"] as? String })
        #expect(newRelicNames.isSuperset(of: ["Custom/Downloading source image", "Custom/Processing image"]))
        let otlpSpans = Self.spans(collector.requests)
        let fetch = try #require(otlpSpans.first { $0.name == "source fetch" }, "\(log)")
        let otlpNames = Set(otlpSpans.filter { $0.traceID == fetch.traceID }.map(\.name))
        #expect(otlpNames.isSuperset(of: Self.otlpStages), "\(otlpNames)")
        #expect(Set([String(datadogTrace), newRelicTrace, fetch.traceID]).count == 3)

        // The origin gets the propagating vendor's headers, and no other's.
        let sent = { (name: String) in origin.stats.values(of: name, for: Self.image) }
        #expect(sent("x-datadog-trace-id") == (propagating == .datadog ? [String(datadogTrace)] : []))
        #expect(sent("x-datadog-parent-id").count == (propagating == .datadog ? 1 : 0))
        #expect(sent("newrelic").count == (propagating == .newRelic ? 1 : 0))
        #expect(sent("tracestate").count == (propagating == .newRelic ? 1 : 0))
        let traceparent = sent("traceparent")
        switch propagating {
        case .newRelic: #expect(traceparent.count == 1 && traceparent[0].hasPrefix("00-\(newRelicTrace)-"))
        case .openTelemetry: #expect(traceparent.count == 1 && traceparent[0].hasPrefix("00-\(fetch.traceID)-"))
        case .datadog, nil: #expect(traceparent.isEmpty)
        }
    }

    /// The spans of the OTLP JSON trace exports among `requests`.
    static func spans(_ requests: [RecordingEndpoint.Received]) -> [OTLPSpan] {
        requests.filter { $0.path == "/v1/traces" }.flatMap { request -> [OTLPSpan] in
            let root = (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any]
            let resources = root?["resourceSpans"] as? [[String: Any]] ?? []
            let scopes = resources.flatMap { $0["scopeSpans"] as? [[String: Any]] ?? [] }
            return scopes.flatMap { $0["spans"] as? [[String: Any]] ?? [] }.map { span in
                OTLPSpan(
                    traceID: (span["traceId"] as? String ?? "").lowercased(), name: span["name"] as? String ?? "")
            }
        }
    }
}
