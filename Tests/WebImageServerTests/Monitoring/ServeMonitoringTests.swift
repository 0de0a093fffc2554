import AsyncHTTPClient
import Foundation
import NIOHTTP1
import Testing
import WebImageTesting

/// imgproxy's Datadog, CloudWatch and New Relic settings on a real `webimage serve` started with only `IMGPROXY_*`, `DD_*` and
/// `AWS_*` variables, in front of a local origin, reporting to local fakes: a Datadog agent (HTTP), a DogStatsD
/// socket (UDP) and CloudWatch (HTTP), each recording what it gets.
@Suite(.serialized) struct ServeMonitoringTests {
    static let image = "/fixtures/corpus/images/gen_alpha.png"

    /// The variables of a server reporting to `agent`, `statsd` and `cloudWatch`.
    static func environment(
        agent: Int, statsd: Int, cloudWatch: Int, newRelic: Int, propagate: Bool
    ) -> [String: String] {
        [
            "IMGPROXY_DATADOG_ENABLE": "true", "IMGPROXY_DATADOG_ENABLE_ADDITIONAL_METRICS": "true",
            "IMGPROXY_DATADOG_PROPAGATE_EXTERNAL": propagate ? "true" : "false", "DD_AGENT_HOST": "127.0.0.1",
            "DD_TRACE_AGENT_PORT": String(agent), "DD_DOGSTATSD_PORT": String(statsd), "DD_ENV": "test",
            "IMGPROXY_CLOUD_WATCH_SERVICE_NAME": "images", "IMGPROXY_CLOUD_WATCH_NAMESPACE": "webimage-test",
            "AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_REGION": "eu-west-1",
            "AWS_ENDPOINT_URL_CLOUDWATCH": "http://127.0.0.1:\(cloudWatch)", "HOME": "/nonexistent",
            "WEBIMAGE_MONITORING_INTERVAL": "0.2", "IMGPROXY_NEW_RELIC_KEY": "license",
            "IMGPROXY_NEW_RELIC_APP_NAME": "images", "IMGPROXY_NEW_RELIC_LABELS": "team=media;env=test",
            "WEBIMAGE_NEW_RELIC_HOST": "http://127.0.0.1:\(newRelic)",
        ]
    }

    @Test(arguments: [false, true])
    func aProcessedImageIsTracedAndTheGaugesReported(propagate: Bool) async throws {
        let origin = TestImageServer()
        try await origin.start()
        defer { Task { try? await origin.shutdown() } }
        let agent = try await RecordingEndpoint()
        defer { agent.stop() }
        let cloudWatch = try await RecordingEndpoint()
        defer { cloudWatch.stop() }
        let newRelic = try await RecordingEndpoint()
        defer { newRelic.stop() }
        let statsd = try SyslogDaemon()
        let environment = Self.environment(
            agent: agent.port, statsd: statsd.port, cloudWatch: cloudWatch.port, newRelic: newRelic.port,
            propagate: propagate)
        var spans: [MessagePackValue] = []
        _ = try await ServeLifecycleTests.serve(environment: environment, arguments: ["--no-cache"]) { base in
            var request = HTTPClientRequest(
                url: base + "/insecure/rs:fit:8:8/plain/" + origin.url(Self.image).absoluteString)
            request.headers.add(name: "x-datadog-trace-id", value: "123")
            request.headers.add(name: "x-datadog-parent-id", value: "456")
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            #expect(response.status == .ok)
            _ = try await response.body.collect(upTo: 1 << 20)
            let received = await agent.requests { requests in
                Self.spans(requests).contains { $0["name"]?.text == "request" }
            }
            spans = Self.spans(received)
            #expect(received.allSatisfy { $0.method == "PUT" && $0.path == "/v0.4/traces" })
            #expect(received.first?.headers["content-type"] == "application/msgpack")
            _ = await cloudWatch.requests { !$0.isEmpty }
            _ = await newRelic.requests { requests in
                requests.contains { $0.path == "/metric/v1" }
                    && ServeNewRelicTests.spans(requests).contains { $0["name"] as? String == "Custom/Queue" }
            }
        }
        let trace = spans.filter { $0["trace_id"]?.number == 123 }
        let names = Set(trace.compactMap { $0["name"]?.text })
        #expect(names.isSuperset(of: ["request", "queue", "downloading_source_image", "processing_image"]), "\(names)")
        let root = try #require(trace.first { $0["name"]?.text == "request" })
        #expect(root["parent_id"]?.number == 456)
        #expect(root["service"]?.text == "imgproxy")
        #expect(root["type"]?.text == "web")
        #expect(root["meta"]?["http.status_code"]?.text == "200")
        #expect(root["meta"]?["env"]?.text == "test")
        let download = try #require(trace.first { $0["name"]?.text == "downloading_source_image" })
        #expect(download["meta"]?["imgproxy.source_image_url"]?.text == origin.url(Self.image).absoluteString)
        // As imgproxy's, the wait for a processing slot is a span of the request, before the processing's.
        let queue = try #require(trace.first { $0["name"]?.text == "queue" })
        let processing = try #require(trace.first { $0["name"]?.text == "processing_image" })
        #expect(queue["parent_id"]?.number == root["span_id"]?.number)
        #expect(processing["parent_id"]?.number == root["span_id"]?.number)
        #expect(try #require(queue["start"]?.number) <= (try #require(processing["start"]?.number)))
        // The origin gets the trace only when asked.
        let sent = origin.stats.values(of: "x-datadog-trace-id", for: Self.image)
        #expect(sent == (propagate ? ["123"] : []))
        let datagrams = await ServeLifecycleTests.offPool { statsd.messages() }.joined(separator: "\n")
        for name in ["workers", "requests_in_progress", "images_in_progress", "workers_utilization"] {
            #expect(datagrams.contains("imgproxy.\(name):"), "\(datagrams)")
        }
        #expect(datagrams.contains("|g|#service:imgproxy,version:"))
        let put = try #require(cloudWatch.requests.first)
        let body = String(decoding: put.body, as: UTF8.self)
        #expect(put.method == "POST")
        #expect(body.hasPrefix("Action=PutMetricData&Version=2010-08-01&Namespace=webimage-test&"))
        for metric in [
            "Workers", "RequestsInProgress", "ImagesInProgress", "ConcurrencyUtilization", "WorkersUtilization",
        ] {
            #expect(body.contains("MetricName=\(metric)&"), "\(body)")
        }
        #expect(
            body.contains("Dimensions.member.1.Name=ServiceName&MetricData.member.1.Dimensions.member.1.Value=images"))
        #expect(put.headers["authorization"]?.contains("/eu-west-1/monitoring/aws4_request") == true)
        // New Relic traces the same requests beside Datadog, in a trace of its own.
        let transactions = ServeNewRelicTests.spans(newRelic.requests)
        let newRelicNames = Set(transactions.compactMap { $0["name"] as? String })
        #expect(
            newRelicNames.isSuperset(of: ["WebTransaction/Go/request", "Custom/Downloading source image"]),
            "\(newRelicNames)")
        // Datadog's `_PROPAGATE_EXTERNAL` sends Datadog's headers alone: New Relic's switch is off.
        #expect(origin.stats.values(of: "traceparent", for: Self.image).isEmpty)
        let metrics = try #require(newRelic.requests.first { $0.path == "/metric/v1" })
        #expect(metrics.headers["x-license-key"] == "license")
        let json = String(decoding: metrics.body, as: UTF8.self)
        #expect(json.contains("\"attributes\":{\"appName\":\"images\",\"env\":\"test\",\"team\":\"media\"}"), "\(json)")
        for name in ["workers", "requests_in_progress", "images_in_progress", "workers_utilization"] {
            #expect(json.contains("\"name\":\"imgproxy/\(name)\""), "\(json)")
        }
    }

    @Test func deadEndpointsDoNotAffectTheAnswers() async throws {
        let origin = TestImageServer()
        try await origin.start()
        defer { Task { try? await origin.shutdown() } }
        // Ports nothing listens on: the agent, DogStatsD and CloudWatch are all gone.
        let environment = Self.environment(agent: 9, statsd: 9, cloudWatch: 9, newRelic: 9, propagate: true)
        let errors = try await ServeLifecycleTests.serve(environment: environment, arguments: ["--no-cache"]) { base in
            for size in 4...9 {
                let url = base + "/insecure/rs:fit:\(size):\(size)/plain/" + origin.url(Self.image).absoluteString
                let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
                #expect(response.status == .ok)
                _ = try await response.body.collect(upTo: 1 << 20)
            }
            try await Task.sleep(for: .seconds(2))
        }
        let drops = errors.split(separator: "\n").filter { $0.contains("monitoring data dropped") }
        #expect(drops.contains { $0.contains("CloudWatch") }, "\(errors)")
        #expect(drops.contains { $0.contains("Datadog agent") }, "\(errors)")
        #expect(drops.contains { $0.contains("New Relic") }, "\(errors)")
        // At most once a minute per endpoint.
        #expect(drops.filter { $0.contains("CloudWatch") }.count == 1, "\(errors)")
    }

    @Test(arguments: [
        ([String](), ["IMGPROXY_DATADOG_ENABLE": "1", "DD_TRACE_AGENT_PORT": "0"], "DD_TRACE_AGENT_PORT"),
        ([], ["IMGPROXY_DATADOG_ENABLE": "1", "DD_TRACE_AGENT_URL": "unix:///var/run/datadog/apm.socket"], "Unix"),
        (
            [],
            [
                "IMGPROXY_DATADOG_ENABLE": "1", "IMGPROXY_DATADOG_ENABLE_ADDITIONAL_METRICS": "1",
                "DD_DOGSTATSD_PORT": "70000",
            ],
            "DD_DOGSTATSD_PORT"
        ),
        (["--new-relic-key", "k", "--new-relic-labels", "novalue"], [:], "--new-relic-labels"),
        (["--new-relic-key", "k", "--new-relic-host", "ftp://127.0.0.1"], [:], "--new-relic-host"),
        (["--monitoring-interval", "0"], [:], "--monitoring-interval"),
        (["--cloud-watch-service-name", "svc"], ["HOME": "/nonexistent"], "CloudWatch"),
    ])
    func monitoringMistakesExit64(arguments: [String], environment: [String: String], mentions: String) async throws {
        let (status, error) = try await ServeLifecycleTests.runOffPool(arguments, environment: environment)
        #expect(status == 64, "\(arguments) \(environment): \(error)")
        #expect(error.contains(mentions), "\(error)")
    }

    /// Every span of every batch `requests` carried.
    static func spans(_ requests: [RecordingEndpoint.Received]) -> [MessagePackValue] {
        requests.flatMap { request -> [MessagePackValue] in
            guard let traces = (try? MessagePackReader.read(request.body))?.array else { return [] }
            return traces.flatMap { $0.array ?? [] }
        }
    }
}
