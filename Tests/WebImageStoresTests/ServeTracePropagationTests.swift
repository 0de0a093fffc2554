import AsyncHTTPClient
import Foundation
import Logging
import Testing
import WebImageTesting

@testable import WebImageServer
@testable import WebImageStores

/// OpenTelemetry's `OTEL_PROPAGATORS`, `OTEL_EXPORTER_OTLP_COMPRESSION`, `OTEL_LOG_LEVEL` and the default service
/// name on a real `webimage serve`: a caller's B3, Jaeger or X-Ray header continues its trace in the exported spans,
/// the origin gets the request's trace in every configured format (and its W3C baggage), exports over OTLP/HTTP are
/// gzipped when asked (inflated here by gzip(1)), log records are exported from `OTEL_LOG_LEVEL` up whatever the log's
/// own level, and an unknown propagator or log level stops the start.
@Suite(.serialized) struct ServeTracePropagationTests {
    /// Random ids of a caller's span, in lower-case hex.
    struct Caller {
        let traceID = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 1...255)) }.joined()
        let spanID = (0..<8).map { _ in String(format: "%02x", UInt8.random(in: 1...255)) }.joined()
    }

    /// Starts a node with `arguments` and `environment`, asks it for each path with its headers, stops it gracefully
    /// (which sends the last batches) and returns the answers' statuses and its log.
    private static func run(
        _ arguments: [String], _ environment: [String: String], name: String, requests: [(String, [String: String])]
    ) async throws -> (statuses: [UInt], exit: Int32, log: String) {
        let home = try LocalProcess.temporaryDirectory(name)
        defer { try? FileManager.default.removeItem(at: home) }
        let executable = try #require(Cluster.executable, "webimage was not built next to the tests")
        let port = try LocalProcess.freePort()
        let node = try await LocalProcess.startAnswering(
            executable,
            [
                "serve", "--port", "\(port)", "--cache-dir", home.appendingPathComponent("cache").path,
                "--allow-loopback-sources",
            ] + arguments,
            in: home, log: "serve", environment: environment, readyURL: "http://127.0.0.1:\(port)/health")
        var statuses: [UInt] = []
        for (path, headers) in requests {
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
            for (name, value) in headers { request.headers.add(name: name, value: value) }
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            _ = try await response.body.collect(upTo: 16 << 20)
            statuses.append(response.status.code)
        }
        let exit = await node.terminateOffPool()
        let log = (try? String(contentsOf: home.appendingPathComponent("serve.log"), encoding: .utf8)) ?? ""
        return (statuses, exit, log)
    }

    private static func path(_ origin: TestImageServer, _ source: String) throws -> String {
        try ImageURLBuilder(signer: nil).url(options: "rs:fit:32:32", source: origin.url(source).absoluteString)
    }

    @Test func b3JaegerAndXRayCallersContinueTheirTracesAndOriginsGetEveryFormat() async throws {
        let receiver = try await OTLPReceiver.start()
        let origin = try await Cluster.startOrigin(sources: 3)
        let (b3, jaeger, xray, ignored) = (Caller(), Caller(), Caller(), Caller())
        let xrayRoot = "1-\(xray.traceID.prefix(8))-\(xray.traceID.dropFirst(8))"
        let run = try await Self.run(
            ["--otel-endpoint", receiver.endpoint],
            [
                "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json", "OTEL_PROPAGATORS": "b3multi, jaeger,xray,baggage",
                "IMGPROXY_OPEN_TELEMETRY_PROPAGATE_EXTERNAL": "true", "OTEL_EXPORTER_OTLP_TRACES_COMPRESSION": "gzip",
                "OTEL_BSP_SCHEDULE_DELAY": "60000",
            ],
            name: "otel-propagators",
            requests: [
                (try Self.path(origin, "/s0.jpg"), ["b3": "\(b3.traceID)-\(b3.spanID)-1"]),
                (try Self.path(origin, "/s1.jpg"), ["uber-trace-id": "\(jaeger.traceID):\(jaeger.spanID):0:1"]),
                (
                    try Self.path(origin, "/s2.jpg"),
                    [
                        "X-Amzn-Trace-Id": "Root=\(xrayRoot);Parent=\(xray.spanID);Sampled=1",
                        "baggage": "tenant=acme, plan = gold",
                        // Not a configured propagator: not read.
                        "traceparent": "00-\(ignored.traceID)-\(ignored.spanID)-01",
                    ]
                ),
            ])
        let exports = receiver.exports.filter { $0.signal == "traces" }
        await receiver.stop()
        let stats = origin.stats
        try await origin.shutdown()
        #expect(run.statuses == [200, 200, 200] && run.exit == 0, "\(run.log)")

        // Every export is gzipped, and gzip(1) inflates it to OTLP JSON.
        #expect(!exports.isEmpty && exports.allSatisfy { $0.contentEncoding == "gzip" })
        let bodies = try exports.map { try OTLPReceiver.gunzip($0.body) }
        let spans = bodies.flatMap { OTLPReceiver.spans(in: $0) }
        for caller in [b3, jaeger, xray] {
            #expect(
                spans.contains { $0.traceID == caller.traceID && $0.parentID == caller.spanID },
                "no span under \(caller) in \(spans)")
        }
        #expect(!spans.contains { $0.traceID == ignored.traceID })
        #expect(bodies.allSatisfy { OTLPReceiver.serviceName(in: $0) == "imgproxy" })

        // The origin gets each request's trace in every configured format, and the caller's baggage.
        for (source, caller) in [("/s0.jpg", b3), ("/s1.jpg", jaeger), ("/s2.jpg", xray)] {
            #expect(stats.values(of: "x-b3-traceid", for: source) == [caller.traceID], "\(source)")
            let spanID = try #require(stats.values(of: "x-b3-spanid", for: source).first)
            #expect(spanID.count == 16 && spanID != caller.spanID)
            #expect(stats.values(of: "x-b3-sampled", for: source) == ["1"])
            #expect(stats.values(of: "uber-trace-id", for: source) == ["\(caller.traceID):\(spanID):0:1"])
            let root = "1-\(caller.traceID.prefix(8))-\(caller.traceID.dropFirst(8))"
            #expect(stats.values(of: "x-amzn-trace-id", for: source) == ["Root=\(root);Parent=\(spanID);Sampled=1"])
            #expect(stats.values(of: "traceparent", for: source).isEmpty && stats.values(of: "b3", for: source).isEmpty)
        }
        #expect(stats.values(of: "baggage", for: "/s2.jpg") == ["tenant=acme,plan=gold"])
        #expect(stats.values(of: "baggage", for: "/s0.jpg").isEmpty)
    }

    @Test func gzipAndTheLogLevelWithImgproxysVariables() async throws {
        let receiver = try await OTLPReceiver.start()
        let origin = try await Cluster.startOrigin(sources: 1)
        let run = try await Self.run(
            ["--log-level", "error"],
            [
                "IMGPROXY_OPEN_TELEMETRY_ENABLE": "true", "IMGPROXY_OPEN_TELEMETRY_ENABLE_LOGS": "true",
                "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.endpoint, "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf",
                "OTEL_EXPORTER_OTLP_COMPRESSION": "gzip", "OTEL_LOG_LEVEL": "DEBUG",
                // imgproxy sets OTEL_SERVICE_NAME itself when it is unset, so this service.name never counts.
                "OTEL_RESOURCE_ATTRIBUTES": "service.name=ignored,deployment.environment=staging",
            ],
            name: "otel-gzip", requests: [(try Self.path(origin, "/s0.jpg"), [:])])
        let exports = receiver.exports
        await receiver.stop()
        try await origin.shutdown()
        #expect(run.statuses == [200] && run.exit == 0, "\(run.log)")
        #expect(Set(exports.map(\.signal)) == ["traces", "logs"], "\(exports.map(\.signal))")
        #expect(exports.allSatisfy { $0.contentEncoding == "gzip" && $0.contentType == "application/x-protobuf" })
        let bodies = try exports.map { ($0.signal, try OTLPReceiver.gunzip($0.body)) }
        for (_, body) in bodies {
            let resource = try #require(ProtobufFields([UInt8](body))?.messages(1).first?.messages(1).first)
            #expect(resource.stringAttributes(1)["service.name"] == "imgproxy")
            #expect(resource.stringAttributes(1)["deployment.environment"] == "staging")
        }
        // The request line is info: exported with OTEL_LOG_LEVEL=debug though the log's own level is error.
        let logs = bodies.filter { $0.0 == "logs" }.map(\.1)
        #expect(logs.contains { $0.range(of: Data("source_host".utf8)) != nil }, "\(run.log)")
        #expect(!run.log.contains("source_host"), "\(run.log)")
    }

    @Test func anOTLPHTTPTransportGzipsWhatItSends() async throws {
        let receiver = try await OTLPReceiver.start()
        let transport = try OTLPHTTPTransport(
            url: receiver.endpoint + "/v1/traces", json: false, gzip: true, headers: [], timeout: .seconds(30),
            tls: OTLPTLSFiles())
        let request = OTLPSignal.traces.request(
            resource: .resource(["service.name": "gzip-test"]), scope: "imgproxy",
            records: (0..<50).map { OTLPMessage().with(5, "name", .string("span \($0)")) })
        try await transport.export(request, signal: .traces)
        await transport.shutdown()
        let exports = receiver.exports
        await receiver.stop()
        let export = try #require(exports.first)
        #expect(exports.count == 1 && export.contentEncoding == "gzip")
        #expect(export.body.count < request.protobuf().count)
        #expect(try OTLPReceiver.gunzip(export.body) == Data(request.protobuf()))
    }

    @Test(arguments: [
        ("OTEL_PROPAGATORS", "tracecontext,zipkin", "zipkin", true),
        ("OTEL_PROPAGATORS", "tracecontext,,baggage", "unknown", true),
        // As imgproxy, which reads the level with its configuration: tracing on or off.
        ("OTEL_LOG_LEVEL", "loud", "OTEL_LOG_LEVEL", true), ("OTEL_LOG_LEVEL", "verbose", "OTEL_LOG_LEVEL", false),
    ])
    func anUnknownPropagatorOrLogLevelStopsTheStart(
        name: String, value: String, mentions: String, tracing: Bool
    ) async throws {
        let executable = try #require(Cluster.executable, "webimage was not built next to the tests")
        let home = try LocalProcess.temporaryDirectory("otel-bad-\(name)")
        defer { try? FileManager.default.removeItem(at: home) }
        let node = try LocalProcess.start(
            executable, ["serve", "--port", "\(try LocalProcess.freePort())"], in: home, log: "serve",
            // OTLP/HTTP: the sanitizer builds have no gRPC, whose absence would stop the start first.
            environment: [name: value].merging(
                tracing
                    ? ["IMGPROXY_OPEN_TELEMETRY_ENABLE": "true", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf"] : [:]
            ) { $1 })
        node.process.waitUntilExit()
        let log = (try? String(contentsOf: home.appendingPathComponent("serve.log"), encoding: .utf8)) ?? ""
        #expect(node.process.terminationStatus == 64, "\(log)")
        #expect(log.contains(name) && log.contains(mentions), "\(log)")
    }
}
