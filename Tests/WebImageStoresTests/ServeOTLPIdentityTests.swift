import AsyncHTTPClient
import Foundation
import Testing
import WebImageServer
import WebImageTesting

@testable import WebImageStores

/// imgproxy's `IMGPROXY_OPEN_TELEMETRY_TRACE_ID_GENERATOR` and `_LOGGER_NAME` on a real `webimage serve` started with
/// imgproxy's and OpenTelemetry's variables alone: X-Ray trace ids by default (their first 4 bytes the Unix time in
/// seconds), random ones when asked, any other generator stopping the start; the spans and metrics under the scope
/// `imgproxy`, the log records under the logger name; over OTLP/HTTP (JSON and protobuf) and OTLP/gRPC.
@Suite(.serialized) struct ServeOTLPIdentityTests {
    /// What one node exported: its exit status, the answer to one image request, the seconds around its run, its log.
    struct Run {
        var status: Int32
        var answer: UInt
        var seconds: ClosedRange<UInt32>
        var log: String
    }

    /// Starts a node with `environment`, asks it for one image, stops it gracefully (which sends the last batches).
    private static func run(_ environment: [String: String], name: String) async throws -> Run {
        let origin = try await Cluster.startOrigin(sources: 1)
        let home = try LocalProcess.temporaryDirectory(name)
        defer { try? FileManager.default.removeItem(at: home) }
        let executable = try #require(Cluster.executable, "webimage was not built next to the tests")
        let port = try LocalProcess.freePort()
        let start = UInt32(Date().timeIntervalSince1970.rounded(.down))
        let node = try await LocalProcess.startAnswering(
            executable,
            [
                "serve", "--port", "\(port)", "--cache-dir", home.appendingPathComponent("cache").path,
                "--allow-loopback-sources",
            ],
            in: home, log: "serve", environment: environment, readyURL: "http://127.0.0.1:\(port)/health")
        let path = try ImageURLBuilder(signer: nil).url(
            options: "rs:fit:32:32", source: origin.url("/s0.jpg").absoluteString)
        let response = try await HTTPClient.shared.execute(
            HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)"), timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 16 << 20)
        let status = await node.terminateOffPool()
        let end = UInt32(Date().timeIntervalSince1970.rounded(.up))
        try await origin.shutdown()
        let log = (try? String(contentsOf: home.appendingPathComponent("serve.log"), encoding: .utf8)) ?? ""
        return Run(status: status, answer: response.status.code, seconds: start...end, log: log)
    }

    /// The Unix time an id's first 4 bytes hold, as X-Ray's do.
    private static func seconds(_ id: [UInt8]) -> UInt32 { id.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }

    /// The scope names and records of the protobuf exports of `signal`.
    private static func records(_ bodies: [Data]) -> [(scope: String, record: ProtobufFields)] {
        bodies.flatMap { ProtobufFields.records(in: $0) }
    }

    @Test func xrayTraceIDsAndTheScopeNamesOverOTLPJSON() async throws {
        let receiver = try await OTLPReceiver.start()
        let run = try await Self.run(
            [
                "IMGPROXY_OPEN_TELEMETRY_ENABLE": "true", "IMGPROXY_OPEN_TELEMETRY_ENABLE_LOGS": "true",
                "IMGPROXY_OPEN_TELEMETRY_LOGGER_NAME": "edge-logs", "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.endpoint,
                "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json",
            ], name: "otel-xray-json")
        let exports = receiver.exports
        let spans = receiver.spans
        await receiver.stop()
        #expect(run.status == 0 && run.answer == 200, "\(run.log)")
        #expect(spans.count >= 4, "\(spans)")
        for span in spans {
            let id = stride(from: 0, to: span.traceID.count, by: 2).compactMap { offset -> UInt8? in
                let start = span.traceID.index(span.traceID.startIndex, offsetBy: offset)
                return UInt8(span.traceID[start..<span.traceID.index(start, offsetBy: 2)], radix: 16)
            }
            #expect(id.count == 16 && run.seconds.contains(Self.seconds(id)), "\(span.traceID) \(run.seconds)")
        }
        func scopes(_ signal: String, _ list: String) -> Set<String> {
            var names: Set<String> = []
            for export in exports where export.signal == signal {
                let root = try? JSONSerialization.jsonObject(with: export.body) as? [String: Any]
                for resource in root?[list] as? [[String: Any]] ?? [] {
                    for scoped in resource[signal == "traces" ? "scopeSpans" : "scopeLogs"] as? [[String: Any]] ?? [] {
                        names.insert((scoped["scope"] as? [String: Any])?["name"] as? String ?? "")
                    }
                }
            }
            return names
        }
        #expect(scopes("traces", "resourceSpans") == ["imgproxy"])
        #expect(scopes("logs", "resourceLogs") == ["edge-logs"], "\(exports.map(\.signal))")
    }

    @Test func randomTraceIDsWhenAskedOverOTLPProtobuf() async throws {
        let receiver = try await OTLPReceiver.start()
        let run = try await Self.run(
            [
                "IMGPROXY_OPEN_TELEMETRY_ENABLE": "true", "IMGPROXY_OPEN_TELEMETRY_ENABLE_LOGS": "true",
                "IMGPROXY_OPEN_TELEMETRY_TRACE_ID_GENERATOR": "random",
                "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.endpoint, "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf",
            ], name: "otel-random")
        let exports = receiver.exports
        await receiver.stop()
        #expect(run.status == 0 && run.answer == 200, "\(run.log)")
        let spans = Self.records(exports.filter { $0.signal == "traces" }.map(\.body))
        #expect(spans.count >= 4 && spans.allSatisfy { $0.scope == "imgproxy" }, "\(spans.map(\.scope))")
        let traces = Set(spans.compactMap { $0.record.bytes(1) })
        // A random id holds the time of the run in its first 4 bytes about once in 2^32 / (a day) traces.
        let day = run.seconds.lowerBound - 86_400...run.seconds.upperBound + 86_400
        #expect(!traces.isEmpty && traces.allSatisfy { $0.count == 16 && !day.contains(Self.seconds($0)) })
        let logs = Self.records(exports.filter { $0.signal == "logs" }.map(\.body))
        #expect(!logs.isEmpty && logs.allSatisfy { $0.scope == "imgproxy" }, "\(logs.map(\.scope))")
    }

    @Test func anUnknownTraceIDGeneratorStopsTheStart() async throws {
        let executable = try #require(Cluster.executable, "webimage was not built next to the tests")
        let home = try LocalProcess.temporaryDirectory("otel-bad-generator")
        defer { try? FileManager.default.removeItem(at: home) }
        let node = try LocalProcess.start(
            executable, ["serve", "--port", "\(try LocalProcess.freePort())"], in: home, log: "serve",
            environment: [
                "IMGPROXY_OPEN_TELEMETRY_ENABLE": "true", "IMGPROXY_OPEN_TELEMETRY_TRACE_ID_GENERATOR": "sequential",
            ])
        node.process.waitUntilExit()
        let log = (try? String(contentsOf: home.appendingPathComponent("serve.log"), encoding: .utf8)) ?? ""
        #expect(node.process.terminationStatus == 64, "\(log)")
        #expect(log.contains("IMGPROXY_OPEN_TELEMETRY_TRACE_ID_GENERATOR"), "\(log)")
    }

    #if canImport(GRPCCore)
        @Test(
            .enabled(
                if: ProcessInfo.processInfo.environment["WEBIMAGE_NO_OTEL"] == nil,
                "webimage is built without its gRPC client (the sanitizer builds)"))
        func xrayTraceIDsAndTheScopeNamesOverGRPC() async throws {
            let receiver = try await OTLPGRPCReceiver.start()
            let run = try await Self.run(
                [
                    "IMGPROXY_OPEN_TELEMETRY_ENABLE": "true", "IMGPROXY_OPEN_TELEMETRY_ENABLE_LOGS": "true",
                    "IMGPROXY_OPEN_TELEMETRY_ENABLE_METRICS": "true", "OTEL_METRIC_EXPORT_INTERVAL": "60000",
                    "IMGPROXY_OPEN_TELEMETRY_LOGGER_NAME": "grpc-logs",
                    "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.endpoint,
                ], name: "otel-grpc-identity")
            let exports = receiver.exports
            await receiver.stop()
            #expect(run.status == 0 && run.answer == 200, "\(run.log)")
            let spans = Self.records(exports.filter { $0.signal == "traces" }.map(\.body))
            #expect(spans.count >= 4 && spans.allSatisfy { $0.scope == "imgproxy" }, "\(spans.map(\.scope))")
            for span in spans {
                let id = span.record.bytes(1) ?? []
                #expect(id.count == 16 && run.seconds.contains(Self.seconds(id)), "\(id) \(run.seconds)")
            }
            let logs = Self.records(exports.filter { $0.signal == "logs" }.map(\.body))
            #expect(!logs.isEmpty && logs.allSatisfy { $0.scope == "grpc-logs" }, "\(logs.map(\.scope))")
            let metrics = Self.records(exports.filter { $0.signal == "metrics" }.map(\.body))
            #expect(
                metrics.contains { $0.record.string(1) == "requests_total" }, "\(exports.map(\.signal)) \(run.log)")
            #expect(!metrics.isEmpty && metrics.allSatisfy { $0.scope == "imgproxy" }, "\(metrics.map(\.scope))")
        }
    #endif
}
