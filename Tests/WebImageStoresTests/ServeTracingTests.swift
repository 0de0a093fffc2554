import AsyncHTTPClient
import Foundation
import Testing
import WebImageServer
import WebImageTesting

@testable import WebImageStores

/// `webimage serve --otel-endpoint`: real processes export their spans over OTLP/HTTP to a receiver of the test's
/// own, on graceful shutdown at the latest; the span tree of a miss, a hit and a request forwarded to its owner, and
/// the `traceparent` the origin and the owner receive.
@Suite(
    .serialized,
    .enabled(
        if: ProcessInfo.processInfo.environment["WEBIMAGE_NO_OTEL"] == nil,
        "webimage is built without grpc-swift (the sanitizer builds)")
) struct ServeTracingTests {
    /// A W3C `traceparent` of a trace the test starts.
    struct Parent {
        let traceID = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        let spanID = (0..<8).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        var header: String { "00-\(traceID)-\(spanID)-01" }
    }

    /// Starts a node exporting to `receiver`, with `environment` added; batches wait a minute, so only a graceful
    /// shutdown sends them.
    private static func node(
        _ port: Int, peers: [Int], receiver: OTLPReceiver, home: URL, environment: [String: String]
    ) async throws -> LocalProcess {
        let executable = try #require(Cluster.executable, "webimage was not built next to the tests")
        let directory = home.appendingPathComponent("node-\(port)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var arguments = [
            "serve", "--port", "\(port)", "--cache-dir", directory.appendingPathComponent("cache").path,
            "--no-auto-webp", "--allow-loopback-sources", "--otel-endpoint", receiver.endpoint,
        ]
        if !peers.isEmpty {
            arguments += ["--self", "http://127.0.0.1:\(port)", "--peer-forward"]
            arguments += peers.flatMap { ["--peer", "http://127.0.0.1:\($0)"] }
        }
        return try await LocalProcess.startAnswering(
            executable, arguments, in: directory, log: "serve",
            environment: ["OTEL_BSP_SCHEDULE_DELAY": "60000"].merging(environment) { $1 },
            readyURL: "http://127.0.0.1:\(port)/health")
    }

    private static func get(_ url: String, parent: Parent) async throws -> Int {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "traceparent", value: parent.header)
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 16 << 20)
        return Int(response.status.code)
    }

    @Test func aMissAHitAndAForwardedRequestGiveTheirSpanTrees() async throws {
        let receiver = try await OTLPReceiver.start()
        let origin = try await Cluster.startOrigin(sources: 2)
        let home = try LocalProcess.temporaryDirectory("tracing")
        let ports = try (0..<2).map { _ in try LocalProcess.freePort() }
        var nodes: [LocalProcess] = []
        defer {
            for node in nodes { node.stop() }
            try? FileManager.default.removeItem(at: home)
        }
        for port in ports {
            nodes.append(
                try await Self.node(
                    port, peers: ports.filter { $0 != port }, receiver: receiver, home: home,
                    environment: [
                        "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json",
                        "IMGPROXY_OPEN_TELEMETRY_PROPAGATE_EXTERNAL": "true",
                    ]))
        }
        // A path owned by the first node and one owned by the second, both asked of the first.
        let ring = ConsistentHashRing(servers: ports.map { "127.0.0.1:\($0)" })
        var owned: [Int: String] = [:]
        for width in 10..<200 where owned.count < 2 {
            let path = try ImageURLBuilder(signer: nil).url(
                options: "rs:fit:\(width):\(width)", source: origin.url("/s0.jpg").absoluteString)
            if let owner = ring.server(for: path), let port = Int(owner.split(separator: ":")[1]), owned[port] == nil {
                owned[port] = path
            }
        }
        let local = try #require(owned[ports[0]])
        let remote = try #require(owned[ports[1]])
        let (miss, hit, forwarded) = (Parent(), Parent(), Parent())
        #expect(try await Self.get("http://127.0.0.1:\(ports[0])\(local)", parent: miss) == 200)
        #expect(try await Self.get("http://127.0.0.1:\(ports[0])\(local)", parent: hit) == 200)
        #expect(try await Self.get("http://127.0.0.1:\(ports[0])\(remote)", parent: forwarded) == 200)
        // The origin was asked twice (once by each node), each time within the trace of the request that missed.
        let traceparents = origin.stats.values(of: "traceparent", for: "/s0.jpg")
        #expect(traceparents.count == 2)
        #expect(traceparents.contains { $0.hasPrefix("00-\(miss.traceID)-") }, "\(traceparents)")
        #expect(traceparents.contains { $0.hasPrefix("00-\(forwarded.traceID)-") }, "\(traceparents)")
        for node in nodes { #expect(await node.terminateOffPool() == 0) }
        nodes = []
        let spans = receiver.spans
        await receiver.stop()
        try await origin.shutdown()

        // The miss: the server span under the caller's, and every stage under it.
        let missSpans = spans.filter { $0.traceID == miss.traceID }
        let server = try #require(missSpans.first { $0.parentID == miss.spanID }, "\(missSpans)")
        let names = Set(missSpans.map(\.name))
        for stage in [
            "options", "result cache", "source fetch", "download", "processing", "decode", "scale", "encode",
            "result store",
        ] {
            #expect(names.contains(stage), "no \(stage) span in \(missSpans)")
        }
        let byID = Dictionary(missSpans.map { ($0.spanID, $0) }) { first, _ in first }
        func ancestors(_ span: OTLPReceiver.Span) -> [String] {
            var chain: [String] = []
            var current = span
            while let parent = byID[current.parentID] {
                chain.append(parent.name)
                current = parent
            }
            return chain
        }
        for span in missSpans where span.spanID != server.spanID {
            #expect(ancestors(span).last == server.name, "\(span) is not under the server span")
        }
        let download = try #require(missSpans.first { $0.name == "download" })
        #expect(ancestors(download).first == "source fetch")
        #expect(download.attributes["server.address"] == "127.0.0.1")
        #expect(download.attributes["http.response.status_code"] == "200")
        #expect(missSpans.first { $0.name == "result cache" }?.attributes["webimage.cache"] == "miss")
        #expect(ancestors(try #require(missSpans.first { $0.name == "decode" })).first == "processing")

        // The hit: the server span and a memory hit, nothing fetched or processed.
        let hitSpans = spans.filter { $0.traceID == hit.traceID }
        #expect(hitSpans.contains { $0.parentID == hit.spanID })
        #expect(hitSpans.first { $0.name == "result cache" }?.attributes["webimage.cache"] == "memory")
        #expect(!hitSpans.contains { ["source fetch", "processing", "download"].contains($0.name) }, "\(hitSpans)")

        // Forwarded: the first node's peer forward, and the owner's server span and stages in the same trace.
        let forwardedSpans = spans.filter { $0.traceID == forwarded.traceID }
        let peerForward = try #require(forwardedSpans.first { $0.name == "peer forward" }, "\(forwardedSpans)")
        let servers = forwardedSpans.filter { $0.attributes["url.path"] != nil }
        #expect(servers.count >= 2, "\(forwardedSpans)")
        #expect(forwardedSpans.filter { $0.name == "source fetch" }.count == 1)
        let ownerServer = try #require(servers.first { $0.parentID != forwarded.spanID }, "\(forwardedSpans)")
        let forwardedByID = Dictionary(forwardedSpans.map { ($0.spanID, $0) }) { first, _ in first }
        var cursor = ownerServer.parentID
        var underPeerForward = false
        while let parent = forwardedByID[cursor] {
            if parent.spanID == peerForward.spanID { underPeerForward = true }
            cursor = parent.parentID
        }
        #expect(underPeerForward, "the owner's server span is not under the peer forward: \(forwardedSpans)")
    }

    @Test func spansAreSentAsProtobufByDefault() async throws {
        let receiver = try await OTLPReceiver.start()
        let origin = try await Cluster.startOrigin(sources: 1)
        let home = try LocalProcess.temporaryDirectory("tracing-protobuf")
        defer { try? FileManager.default.removeItem(at: home) }
        let port = try LocalProcess.freePort()
        let node = try await Self.node(port, peers: [], receiver: receiver, home: home, environment: [:])
        let parent = Parent()
        let path = try ImageURLBuilder(signer: nil).url(
            options: "rs:fit:32:32", source: origin.url("/s0.jpg").absoluteString)
        let status = try await Self.get("http://127.0.0.1:\(port)\(path)", parent: parent)
        #expect(await node.terminateOffPool() == 0)
        // As imgproxy without IMGPROXY_OPEN_TELEMETRY_PROPAGATE_EXTERNAL: the trace goes on, the origin is not told.
        #expect(origin.stats.values(of: "traceparent", for: "/s0.jpg").isEmpty)
        let exports = receiver.exports
        await receiver.stop()
        try await origin.shutdown()
        #expect(status == 200)
        #expect(!exports.isEmpty)
        #expect(exports.allSatisfy { $0.contentType == "application/x-protobuf" }, "\(exports.map(\.contentType))")
        // Metrics and logs only when asked for (ServeOpenTelemetryTests).
        #expect(exports.allSatisfy { $0.signal == "traces" }, "\(exports.map(\.signal))")
        // The trace id travels as its 16 raw bytes in the protobuf message.
        var traceID: [UInt8] = []
        var hex = Substring(parent.traceID)
        while !hex.isEmpty {
            traceID.append(UInt8(hex.prefix(2), radix: 16) ?? 0)
            hex = hex.dropFirst(2)
        }
        #expect(exports.contains { $0.body.range(of: Data(traceID)) != nil })
    }
}
