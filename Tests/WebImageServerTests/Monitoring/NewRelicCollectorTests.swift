import Foundation
import Logging
import Testing
import Tracing
import WebImage
import WebImageTesting

@testable import WebImageServer

/// The agent protocol's handshake against a fake collector on 127.0.0.1: the account, trusted key and application id
/// it names reach the error events and the trace headers; a collector that fails or refuses is logged and leaves the
/// tracer without an account; the setting wins over the collector.
@Suite struct NewRelicCollectorTests {
    static func settings(_ fake: FakeNewRelicCollector, account: String? = nil) -> NewRelicMonitoring {
        NewRelicMonitoring(
            key: "eu01xxlicense", appName: "images;all images", labels: ["team": "media"],
            accountID: account,
            endpoint: fake.url)
    }

    static func collector(
        _ settings: NewRelicMonitoring, log: LogCapture = LogCapture()
    )
        -> NewRelicCollector
    {
        NewRelicCollector(
            settings: settings, client: .shared, logger: log.logger,
            environment: ["NEW_RELIC_METADATA_KUBERNETES_POD": "pod-1", "HOME": "/root"])
    }

    static func tracer(_ settings: NewRelicMonitoring) -> NewRelicTracer {
        NewRelicTracer(
            settings, logger: Logger(label: "test"), connectDelays: [.milliseconds(10)], environment: [:])
    }

    @Test(arguments: [
        ("eu01xx66c637a29c3982469a3fe8d1982d002c4a", "collector.eu01.nr-data.net"),
        ("gov01x69c637a29c3982469a3fe8d1982d002c4b", "collector.gov01.nr-data.net"),
        ("08a2ad66c637a29c3982469a3fe8d1982d002c4a", "collector.newrelic.com"),
        ("x8a2ad66c637a29c3982469a3fe8d1982d002c4a", "collector.newrelic.com"),
        ("", "collector.newrelic.com"),
    ])
    func theCollectorIsTheKeysRegions(key: String, host: String) {
        #expect(NewRelicCollector.preconnectHost(key: key) == host)
    }

    @Test func theHandshakeIsTheGoAgents() async throws {
        let fake = try await FakeNewRelicCollector()
        defer { fake.stop() }
        let reply = try await Self.collector(Self.settings(fake)).connect()
        #expect(reply.runID == "BCDEF")
        #expect(reply.accountID == "5678")
        #expect(reply.trustedAccountKey == "99")
        #expect(reply.primaryApplicationID == "4321")
        let calls = fake.requests.filter { $0.path == "/agent_listener/invoke_raw_method" }
        #expect(calls.map { $0.query["method"] } == ["preconnect", "connect"])
        for call in calls {
            #expect(call.query["license_key"] == "eu01xxlicense")
            #expect(call.query["protocol_version"] == "17")
            #expect(call.query["marshal_format"] == "json")
            #expect(call.headers["content-encoding"] == "identity")
        }
        let preconnect = try JSONSerialization.jsonObject(with: Data(calls[0].body)) as? [[String: Any]]
        #expect(preconnect?.first?["high_security"] as? Bool == false)
        let body = try #require(
            try JSONSerialization.jsonObject(with: Data(calls[1].body)) as? [[String: Any]])
        #expect(body.count == 1)
        let connect = try #require(body.first)
        #expect(connect["pid"] as? Int == Int(ProcessInfo.processInfo.processIdentifier))
        #expect(connect["language"] as? String == "go")
        #expect(connect["app_name"] as? [String] == ["images", "all images"])
        #expect(connect["identifier"] as? String == "images;all images")
        #expect(connect["host"] as? String == ProcessInfo.processInfo.hostName)
        let labels = connect["labels"] as? [[String: String]]
        #expect(labels == [["label_type": "team", "label_value": "media"]])
        #expect(
            connect["metadata"] as? [String: String] == ["NEW_RELIC_METADATA_KUBERNETES_POD": "pod-1"])
        #expect((connect["utilization"] as? [String: Any])?["logical_processors"] as? Int ?? 0 > 0)
        #expect(connect["environment"] is [[Any]])
    }

    @Test func theLearnedAccountReachesTheErrorEventAndTheHeaders() async throws {
        let fake = try await FakeNewRelicCollector()
        defer { fake.stop() }
        let tracer = Self.tracer(Self.settings(fake))
        #expect(tracer.account == nil)
        await Self.collector(tracer.settings).connect(retryingAfter: [.milliseconds(10)]) {
            tracer.connected($0)
        }
        #expect(tracer.account == NewRelicAccount(id: "5678", trustedKey: "99", applicationID: "4321"))
        let span = tracer.startSpan("GET /**", context: .topLevel, ofKind: .server)
        span.recordError(ImageServerError(status: 500, "broken"))
        var origin: [String: String] = [:]
        tracer.inject(span.context, into: &origin, using: NewRelicTracerTests.Headers())
        span.end()
        #expect(tracer.drainErrors().count == 1)
        let entry = try #require(tracer.drain().first)
        let state = try #require(origin["tracestate"])
        #expect(state.hasPrefix("99@nr=0-0-5678-4321-\(entry.id)-"), "\(state)")
        let header = try #require(origin["newrelic"].flatMap { Data(base64Encoded: $0) })
        let json = try #require(try JSONSerialization.jsonObject(with: header) as? [String: Any])
        let fields = try #require(json["d"] as? [String: Any])
        #expect(fields["ac"] as? String == "5678")
        #expect(fields["ap"] as? String == "4321")
        #expect(fields["tk"] as? String == "99")
    }

    @Test func theSettingWinsOverTheCollector() throws {
        let reply = NewRelicConnectReply(
            runID: "r", accountID: "5678", trustedAccountKey: "99", primaryApplicationID: "4321")
        #expect(
            NewRelicAccount(configured: "1234", reply: reply)
                == NewRelicAccount(id: "1234", trustedKey: "1234", applicationID: "4321"))
        #expect(
            NewRelicAccount(configured: "5678", reply: reply)
                == NewRelicAccount(id: "5678", trustedKey: "99", applicationID: "4321"))
        #expect(NewRelicAccount(configured: "1234", reply: nil) == NewRelicAccount(id: "1234"))
        #expect(NewRelicAccount(configured: nil, reply: nil) == nil)
        // Ids that are not numbers are not taken into headers or URLs.
        let odd = NewRelicConnectReply(
            runID: "r", accountID: "1/../x", trustedAccountKey: "9\r\n", primaryApplicationID: "a")
        #expect(NewRelicAccount(configured: nil, reply: odd) == nil)
        #expect(NewRelicAccount(configured: "1", reply: odd) == NewRelicAccount(id: "1"))
    }

    static let failures: [(String, FakeNewRelicCollector.Answer, NewRelicCollectorError.Reason)] = [
        ("connect", .init(status: .internalServerError, body: "oops"), .status(500)),
        ("connect", .init(status: .unauthorized, body: ""), .status(401)),
        ("preconnect", .init(status: .conflict, body: ""), .status(409)),
        ("connect", .init(status: .ok, body: "{not json"), .malformedReply("{not json")),
        ("connect", .value(#"{"account_id":5678}"#), .malformedReply("no agent_run_id")),
        (
            "connect",
            .init(
                status: .ok,
                body:
                    #"{"exception":{"error_type":"NewRelic::Agent::ForceRestartException","message":"restart"}}"#
            ),
            .exception(type: "NewRelic::Agent::ForceRestartException", message: "restart")
        ),
        (
            "preconnect",
            .init(
                status: .ok,
                body:
                    #"{"exception":{"error_type":"NewRelic::Agent::LicenseException","message":"Invalid license"}}"#
            ),
            .exception(type: "NewRelic::Agent::LicenseException", message: "Invalid license")
        ),
    ]

    @Test(arguments: failures)
    func aFailedConnectLeavesNoAccount(
        method: String, answer: FakeNewRelicCollector.Answer, reason: NewRelicCollectorError.Reason
    ) async throws {
        var answers = [
            "preconnect": [FakeNewRelicCollector.preconnect], "connect": [FakeNewRelicCollector.connect],
        ]
        answers[method] = [answer]
        let fake = try await FakeNewRelicCollector(answers: answers)
        defer { fake.stop() }
        let settings = Self.settings(fake)
        let collector = Self.collector(settings)
        await #expect(throws: NewRelicCollectorError(method: method, reason: reason)) {
            try await collector.connect()
        }
        let tracer = Self.tracer(settings)
        let span = tracer.startSpan("GET /**", context: .topLevel, ofKind: .server)
        span.recordError(ImageServerError(status: 500, "broken"))
        var origin: [String: String] = [:]
        tracer.inject(span.context, into: &origin, using: NewRelicTracerTests.Headers())
        span.end()
        #expect(tracer.account == nil)
        #expect(tracer.drainErrors().isEmpty)
        #expect(origin.keys.sorted() == ["traceparent"])
    }

    @Test func aFailureIsLoggedAndRetriedUntilTheCollectorAnswers() async throws {
        let fake = try await FakeNewRelicCollector(answers: [
            "preconnect": [
                .init(status: .serviceUnavailable, body: ""), FakeNewRelicCollector.preconnect,
            ],
            "connect": [.init(status: .ok, body: "[]"), FakeNewRelicCollector.connect],
        ])
        defer { fake.stop() }
        let log = LogCapture()
        let learned = Locked<NewRelicConnectReply?>(nil)
        await Self.collector(Self.settings(fake), log: log).connect(retryingAfter: [.milliseconds(10)]) { reply in
            learned.withLock { $0 = reply }
        }
        #expect(learned.withLock { $0 }?.accountID == "5678")
        #expect(fake.calls("preconnect").count == 3)
        #expect(fake.calls("connect").count == 2)
        let lines = log.lines.withLock { $0 }
        #expect(lines.filter { $0.contains("New Relic connect failure") }.count == 2, "\(lines)")
        #expect(lines.contains { $0.contains("preconnect: HTTP 503") }, "\(lines)")
        #expect(
            lines.contains { $0.contains("New Relic connected") && $0.contains("account=5678") },
            "\(lines)")
        #expect(!lines.contains { $0.contains("eu01xxlicense") }, "\(lines)")
    }

    @Test func aDisconnectEndsTheAttempts() async throws {
        let fake = try await FakeNewRelicCollector(answers: [
            "preconnect": [.init(status: .gone, body: "")], "connect": [FakeNewRelicCollector.connect],
        ])
        defer { fake.stop() }
        let log = LogCapture()
        let learned = Locked<NewRelicConnectReply?>(nil)
        await Self.collector(Self.settings(fake), log: log).connect(retryingAfter: [.milliseconds(10)]) { reply in
            learned.withLock { $0 = reply }
        }
        #expect(learned.withLock { $0 } == nil)
        #expect(fake.calls("preconnect").count == 1)
        #expect(
            log.lines.withLock { $0 }.contains { $0.contains("New Relic disconnected the application") })
    }

    @Test func aCancelledConnectEnds() async throws {
        let fake = try await FakeNewRelicCollector(answers: [
            "preconnect": [.init(status: .internalServerError, body: "")], "connect": [],
        ])
        defer { fake.stop() }
        let task = Task {
            await Self.collector(Self.settings(fake)).connect(retryingAfter: [.seconds(3600)]) { _ in }
        }
        _ = await Self.poll { !fake.calls("preconnect").isEmpty }
        task.cancel()
        await task.value
        #expect(fake.calls("preconnect").count == 1)
    }

    @Test(arguments: [
        ("collector-001.newrelic.com", "https://collector-001.newrelic.com"),
        ("collector.eu01.nr-data.net:443", "https://collector.eu01.nr-data.net:443"), ("", nil),
        ("a/b", nil),
        ("user@evil", nil), ("a?b", nil), ("a#b", nil), ("a b", nil), (nil, nil),
    ])
    func theRedirectIsAHostAlone(host: String?, base: String?) {
        #expect(NewRelicCollector.connectBase(redirectHost: host) == base)
    }

    @Test func theURLCarriesTheProtocolsQuery() {
        let settings = NewRelicMonitoring(key: "ab+cd")
        let collector = NewRelicCollector(
            settings: settings, client: .shared, logger: Logger(label: "test"), environment: [:])
        #expect(
            collector.url("connect", base: "https://collector-001.eu01.nr-data.net/")
                == "https://collector-001.eu01.nr-data.net/agent_listener/invoke_raw_method?marshal_format=json"
                + "&method=connect&license_key=ab%2Bcd&protocol_version=17")
    }

    /// Polls `condition` every 50 ms for up to 30 s.
    static func poll(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<600 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return condition()
    }
}
