import AsyncHTTPClient
import Foundation
import Testing
import WebImageTesting

/// imgproxy's New Relic settings on a real `webimage serve` started with only `IMGPROXY_NEW_RELIC_*` variables (and
/// the endpoint and account of ours), in front of a local origin that records the headers it gets, reporting to a
/// local fake of New Relic's Trace, Event and Metric APIs.
@Suite(.serialized) struct ServeNewRelicTests {
    static let image = "/fixtures/corpus/images/gen_alpha.png"
    static let trace = "4bf92f3577b34da6a3ce929d0e0e4736"

    static func environment(newRelic: Int, propagate: Bool) -> [String: String] {
        [
            "IMGPROXY_NEW_RELIC_KEY": "license", "IMGPROXY_NEW_RELIC_APP_NAME": "images",
            "IMGPROXY_NEW_RELIC_LABELS": "team=media", "WEBIMAGE_NEW_RELIC_HOST": "http://127.0.0.1:\(newRelic)",
            "WEBIMAGE_NEW_RELIC_ACCOUNT_ID": "1234", "WEBIMAGE_MONITORING_INTERVAL": "0.2",
            "IMGPROXY_NEW_RELIC_PROPAGATE_EXTERNAL": propagate ? "true" : "false",
        ]
    }

    @Test(arguments: [false, true])
    func requestsAreTransactionsAndAnOriginErrorAnEvent(propagate: Bool) async throws {
        let origin = TestImageServer()
        try await origin.start()
        defer { Task { try? await origin.shutdown() } }
        let newRelic = try await RecordingEndpoint()
        defer { newRelic.stop() }
        var received: [RecordingEndpoint.Received] = []
        let environment = Self.environment(newRelic: newRelic.port, propagate: propagate)
        let errors = try await ServeLifecycleTests.serve(environment: environment, arguments: ["--no-cache"]) { base in
            var request = HTTPClientRequest(
                url: base + "/insecure/rs:fit:8:8/plain/" + origin.url(Self.image).absoluteString)
            request.headers.add(name: "traceparent", value: "00-\(Self.trace)-00f067aa0ba902b7-01")
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            #expect(response.status == .ok)
            _ = try await response.body.collect(upTo: 1 << 20)
            let missing = base + "/insecure/rs:fit:8:8/plain/" + origin.url("/status/404").absoluteString
            let failed = try await HTTPClient.shared.execute(HTTPClientRequest(url: missing), timeout: .seconds(30))
            #expect(failed.status == .notFound)
            _ = try await failed.body.collect(upTo: 1 << 20)
            received = await newRelic.requests { requests in
                Self.spans(requests).filter { $0["name"] as? String == "WebTransaction/Go/request" }.count == 2
                    && requests.contains { $0.path.hasSuffix("/events") }
                    && requests.contains { $0.path == "/metric/v1" }
            }
        }
        // Every variable is read: none is in the start-up warning.
        #expect(!errors.contains("NEW_RELIC"), "\(errors)")
        let posts = received.filter { $0.path == "/trace/v1" }
        let post = try #require(posts.first)
        #expect(post.method == "POST")
        #expect(post.headers["api-key"] == "license")
        #expect(post.headers["data-format"] == "newrelic")
        #expect(post.headers["data-format-version"] == "1")
        let batch = try #require(try JSONSerialization.jsonObject(with: Data(post.body)) as? [[String: Any]])
        let common = try #require((batch.first?["common"] as? [String: Any])?["attributes"] as? [String: Any])
        #expect(common["service.name"] as? String == "images")
        #expect(common["team"] as? String == "media")
        let spans = Self.spans(received)
        let traced = spans.filter { $0["trace.id"] as? String == Self.trace }
        let names = Set(traced.compactMap { $0["name"] as? String })
        #expect(
            names.isSuperset(of: [
                "WebTransaction/Go/request", "Custom/Queue", "Custom/Downloading source image",
                "Custom/Processing image",
            ]), "\(names)")
        let entry = try #require(traced.first { $0["name"] as? String == "WebTransaction/Go/request" })
        #expect(entry["parent.id"] as? String == "00f067aa0ba902b7")
        #expect(entry["http.statusCode"] as? Double == 200)
        #expect(entry["request.method"] as? String == "GET")
        #expect(entry["imgproxy.source_image_url"] as? String == origin.url(Self.image).absoluteString)
        let download = try #require(traced.first { $0["name"] as? String == "Custom/Downloading source image" })
        #expect(download["parent.id"] as? String == entry["id"] as? String)
        #expect(download["imgproxy.source_image_origin"] as? String == origin.baseURL.absoluteString)
        let failedEntry = try #require(
            spans.first {
                $0["name"] as? String == "WebTransaction/Go/request" && $0["trace.id"] as? String != Self.trace
            })
        #expect((failedEntry["error.class"] as? String)?.hasPrefix("download_error") == true, "\(failedEntry)")
        let eventPost = try #require(received.first { $0.path.hasSuffix("/events") })
        #expect(eventPost.path == "/v1/accounts/1234/events")
        #expect(eventPost.headers["api-key"] == "license")
        let events = try #require(try JSONSerialization.jsonObject(with: Data(eventPost.body)) as? [[String: Any]])
        #expect(events.count == 1)
        #expect(events.first?["eventType"] as? String == "TransactionError")
        #expect(events.first?["transactionName"] as? String == "WebTransaction/Go/request")
        #expect((events.first?["error.class"] as? String)?.hasPrefix("download_error") == true)
        #expect(events.first?["traceId"] as? String == failedEntry["trace.id"] as? String)
        // The origin gets the trace only when asked, from a span under the download's segment.
        let sent = origin.stats.values(of: "traceparent", for: Self.image)
        #expect(sent.count == (propagate ? 1 : 0))
        if let header = sent.first {
            #expect(header.hasPrefix("00-\(Self.trace)-") && header.hasSuffix("-01"), "\(header)")
            var id = String(header.dropFirst(36).prefix(16))
            var ancestors: [String] = []
            while let span = traced.first(where: { $0["id"] as? String == id }), ancestors.count < 10 {
                ancestors.append(id)
                id = span["parent.id"] as? String ?? ""
            }
            #expect(ancestors.contains(download["id"] as? String ?? "-"), "\(header) \(traced)")
        }
        #expect(origin.stats.values(of: "newrelic", for: Self.image).count == (propagate ? 1 : 0))
    }

    @Test func aDeadEndpointCostsTheAnswersNothing() async throws {
        let origin = TestImageServer()
        try await origin.start()
        defer { Task { try? await origin.shutdown() } }
        let errors = try await ServeLifecycleTests.serve(
            environment: Self.environment(newRelic: 9, propagate: true), arguments: ["--no-cache"]
        ) { base in
            for size in 4...9 {
                let url = base + "/insecure/rs:fit:\(size):\(size)/plain/" + origin.url(Self.image).absoluteString
                let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
                #expect(response.status == .ok)
                _ = try await response.body.collect(upTo: 1 << 20)
            }
            try await Task.sleep(for: .seconds(2))
        }
        let drops = errors.split(separator: "\n").filter { $0.contains("monitoring data dropped") }
        #expect(drops.filter { $0.contains("/trace/v1") }.count == 1, "\(errors)")
    }

    @Test func anAccountThatIsNotANumberExits64() async throws {
        let (status, error) = try await ServeLifecycleTests.runOffPool(
            ["--new-relic-account-id", "abc"], environment: ["IMGPROXY_NEW_RELIC_KEY": "k"])
        #expect(status == 64, "\(error)")
        #expect(error.contains("new-relic-account-id"), "\(error)")
    }

    /// Every span of every Trace API post, its attributes with its ids (`trace.id`, `id`).
    static func spans(_ requests: [RecordingEndpoint.Received]) -> [[String: Any]] {
        requests.filter { $0.path == "/trace/v1" }.flatMap { request -> [[String: Any]] in
            guard let batches = (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [[String: Any]]
            else { return [] }
            return batches.flatMap { batch -> [[String: Any]] in
                ((batch["spans"] as? [[String: Any]]) ?? []).map { span in
                    var attributes = (span["attributes"] as? [String: Any]) ?? [:]
                    attributes["trace.id"] = span["trace.id"]
                    attributes["id"] = span["id"]
                    return attributes
                }
            }
        }
    }
}
