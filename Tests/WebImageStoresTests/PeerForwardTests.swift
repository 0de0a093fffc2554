import AsyncHTTPClient
import Foundation
import Testing
import WebImageServer
import WebImageTesting

@testable import WebImageStores

/// `--peer-forward` on real `webimage serve` processes without a balancer in front: whichever node a request reaches,
/// in whatever spelling, its result is made on the node nginx's ring gives its canonical URL.
@Suite(.serialized) struct PeerForwardTests {
    /// Three nodes that know each other, each caching on its own disk, no shared tier.
    private struct Nodes {
        let origin: TestImageServer
        let ports: [Int]
        var processes: [Int: LocalProcess]
        let home: URL
        var ring: ConsistentHashRing { ConsistentHashRing(servers: ports.map { "127.0.0.1:\($0)" }) }

        static func start(sources: Int) async throws -> Nodes {
            let origin = try await Cluster.startOrigin(sources: sources)
            let home = try LocalProcess.temporaryDirectory("peer-forward")
            let ports = try (0..<3).map { _ in try LocalProcess.freePort() }
            var nodes = Nodes(origin: origin, ports: ports, processes: [:], home: home)
            do {
                for port in ports { nodes.processes[port] = try await nodes.startNode(port) }
            } catch {
                try await nodes.stop()
                throw error
            }
            return nodes
        }

        func startNode(_ port: Int) async throws -> LocalProcess {
            guard let executable = Cluster.executable else {
                throw LocalProcessError.missing("webimage was not built next to the tests")
            }
            let directory = home.appendingPathComponent("node-\(port)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let peers = ports.filter { $0 != port }.flatMap { ["--peer", "http://127.0.0.1:\($0)"] }
            return try await LocalProcess.startAnswering(
                executable,
                [
                    "serve", "--port", "\(port)", "--cache-dir", directory.appendingPathComponent("cache").path,
                    "--no-auto-webp", "--allow-loopback-sources", "--self", "http://127.0.0.1:\(port)",
                    "--peer-forward",
                ] + peers, in: directory, log: "serve", readyURL: "http://127.0.0.1:\(port)/health")
        }

        func stop() async throws {
            for process in processes.values { process.stop() }
            try? FileManager.default.removeItem(at: home)
            try await origin.shutdown()
        }

        /// `GET path` on the node on `port`: the status, the ETag and the body.
        func get(
            _ path: String, at port: Int, headers: [(String, String)] = []
        ) async throws -> (status: Int, etag: String, body: [UInt8]) {
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
            for (name, value) in headers { request.headers.add(name: name, value: value) }
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 16 << 20)
            return (Int(response.status.code), response.headers.first(name: "ETag") ?? "", Array(buffer: body))
        }
    }

    /// Four spellings of `fill` to `width`x`height` of `source`: short and long names, plain and base64 sources, and
    /// the canonical one (which nginx would hash).
    private static func spellings(_ source: String, width: Int, height: Int) throws -> [String] {
        let encoded = Data(source.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        return [
            "/insecure/rs:fill:\(width):\(height)/plain/\(source)",
            "/insecure/resize:fill:\(width):\(height)/\(encoded)",
            "/insecure/w:\(width)/h:\(height)/rt:fill/plain/\(source)",
            try ImageURLBuilder(signer: nil).url(options: "rs:fill:\(width):\(height)", source: source),
        ]
    }

    @Test func eachResultIsMadeOnceOnItsOwnerHoweverItsURLIsSpelled() async throws {
        let nodes = try await Nodes.start(sources: 6)
        do {
            try await checkOwnership(nodes)
        } catch {
            try await nodes.stop()
            throw error
        }
        try await nodes.stop()
    }

    private func checkOwnership(_ nodes: Nodes) async throws {
        let ring = nodes.ring
        var made: [(source: Int, spellings: [String], owner: Int)] = []
        for source in 0..<6 {
            for (width, height) in [(40, 30), (24, 24), (16, 32), (50, 20), (33, 17)] {
                let url = nodes.origin.url("/s\(source).jpg").absoluteString
                let spellings = try Self.spellings(url, width: width, height: height)
                let owner = try #require(ring.server(for: spellings[3]).flatMap { Int($0.split(separator: ":")[1]) })
                made.append((source, spellings, owner))
            }
        }
        let results = made
        // Each spelling of a result at another node, one result after another within a task, 6 tasks at once.
        var misses = 0
        for (index, result) in results.enumerated() {
            misses += result.spellings.indices.filter { nodes.ports[(index + $0) % 3] != result.owner }.count
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for lane in 0..<6 {
                group.addTask {
                    for (index, result) in results.enumerated() where index % 6 == lane {
                        var answers: [(status: Int, etag: String, body: [UInt8])] = []
                        for (offset, path) in result.spellings.enumerated() {
                            answers.append(try await nodes.get(path, at: nodes.ports[(index + offset) % 3]))
                        }
                        #expect(answers.allSatisfy { $0.status == 200 })
                        #expect(Set(answers.map(\.etag)).count == 1, "one result, one ETag: \(result.spellings[0])")
                        #expect(answers.allSatisfy { $0.body == answers[0].body && !$0.body.isEmpty })
                    }
                }
            }
            try await group.waitForAll()
        }
        for port in nodes.ports {
            let owned = results.filter { $0.owner == port }.count
            #expect(try await Cluster.metric("webimage_processing_runs_total", port: port) == Double(owned))
        }
        var forwards = 0.0
        for port in nodes.ports { forwards += try await Cluster.metric("webimage_peer_forwards_total", port: port) }
        #expect(forwards == Double(misses), "every request that reached another node than the owner was forwarded")
        for source in 0..<6 {
            let owners = Set(results.filter { $0.source == source }.map(\.owner))
            #expect(nodes.origin.requestCount("/s\(source).jpg") == owners.count)
        }

        // A request already forwarded is answered where it arrives, never forwarded again.
        let result = try #require(results.first)
        let elsewhere = try #require(nodes.ports.first { $0 != result.owner })
        let runs = try await Cluster.metric("webimage_processing_runs_total", port: elsewhere)
        let marked = try await nodes.get(
            result.spellings[0], at: elsewhere, headers: [("X-Webimage-Forwarded-By", "127.0.0.1:1")])
        #expect(marked.status == 200)
        #expect(try await Cluster.metric("webimage_processing_runs_total", port: elsewhere) == runs + 1)
    }

    @Test func anUnreachableOwnerIsSkippedAndTheNodeAnswersItself() async throws {
        var nodes = try await Nodes.start(sources: 4)
        do {
            let ring = nodes.ring
            let victim = nodes.ports[2]
            nodes.processes.removeValue(forKey: victim)?.stop()
            var orphans: [String] = []
            for source in 0..<4 {
                for width in [20, 30, 40, 50, 60] {
                    let url = nodes.origin.url("/s\(source).jpg").absoluteString
                    let spellings = try Self.spellings(url, width: width, height: 20)
                    if ring.server(for: spellings[3]) == "127.0.0.1:\(victim)" { orphans.append(spellings[0]) }
                }
            }
            try #require(!orphans.isEmpty)
            let survivor = nodes.ports[0]
            for path in orphans { #expect(try await nodes.get(path, at: survivor).status == 200) }
            #expect(try await Cluster.metric("webimage_processing_runs_total", port: survivor) == Double(orphans.count))
            #expect(try await Cluster.metric("webimage_peer_forwards_total", port: survivor) == 0)
        } catch {
            try await nodes.stop()
            throw error
        }
        try await nodes.stop()
    }
}
