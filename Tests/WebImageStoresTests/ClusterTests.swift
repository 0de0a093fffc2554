import Foundation
import Testing
import WebImage
import WebImageServer
import WebImageTesting

@testable import WebImageStores

/// The scale-out targets on a real cluster: 3 `webimage serve` processes behind nginx, sharing a SeaweedFS tier.
@Suite(.serialized) struct ClusterTests {
    /// 50 sources × 6 widths = 300 distinct results, each by its canonical URL.
    static let sources = 50
    static let widths = [16, 24, 32, 40, 48, 56]

    @Test func eachSourceIsFetchedOnceAndKeysMoveOnlyAsTheRingSays() async throws {
        try await Cluster.run(sources: Self.sources, nodes: 3) { try await check(&$0) }
    }

    private func check(_ cluster: inout Cluster) async throws {
        let builder = ImageURLBuilder(signer: nil)
        var paths: [String] = []
        for index in 0..<Self.sources {
            for width in Self.widths {
                var options = ProcessingOptions()
                options.width = width
                paths.append(builder.url(options, source: cluster.origin.url("/s\(index).jpg").absoluteString))
            }
        }

        // 1. Every result requested 5 times in shuffled order by 32 concurrent clients: each source fetched from the
        //    origin once cluster-wide, each result stored once in the shared tier.
        var generator = SystemRandomNumberGenerator()
        let trace = (paths + paths + paths + paths + paths).shuffled(using: &generator)
        let first = try await Self.request(trace, through: cluster, concurrency: 32)
        #expect(first.values.allSatisfy { $0.status == 200 })
        #expect(cluster.origin.stats.total == Self.sources)
        for index in 0..<Self.sources { #expect(cluster.origin.requestCount("/s\(index).jpg") == 1) }
        #expect(try await cluster.storedKeys("results/").count == paths.count)
        #expect(try await cluster.metric("webimage_processing_runs_total") == Double(paths.count))
        #expect(try await cluster.metric("webimage_origin_fetches_total") == Double(Self.sources))
        let owners = first.mapValues(\.node)
        let names = cluster.upstream.map { "127.0.0.1:\($0)" }
        let ring = ConsistentHashRing(servers: names)
        #expect(paths.allSatisfy { owners[$0] == ring.server(for: $0) }, "nginx routes as our ring predicts")

        // 3. A fourth node (nginx -s reload): exactly the keys the ring gives it move, all to it, served from the
        //    shared tier without the origin.
        let added = try LocalProcess.freePort()
        try await cluster.start(added)
        let grown = ConsistentHashRing(servers: names + ["127.0.0.1:\(added)"])
        let afterAdd = try await Self.request(paths, through: cluster, concurrency: 8)
        let moved = paths.filter { afterAdd[$0]?.node != owners[$0] }
        #expect(afterAdd.values.allSatisfy { $0.status == 200 })
        #expect(moved.allSatisfy { afterAdd[$0]?.node == "127.0.0.1:\(added)" })
        #expect(Set(moved) == Set(paths.filter { grown.server(for: $0) != ring.server(for: $0) }))
        #expect(cluster.origin.stats.total == Self.sources)

        // 2. A node killed with SIGKILL: no request fails (nginx retries on the next node), the keys of the survivors
        //    stay where they are, and the dead node's results come from the shared tier, not the origin.
        //    The kill comes in the middle of the requests, with some of them in flight on the victim.
        let victim = cluster.upstream[0]
        let (front, twice) = (cluster, paths + paths)
        async let requests = Self.request(twice, through: front, concurrency: 8)
        try await Task.sleep(for: .milliseconds(150))
        cluster.kill(victim)
        let afterKill = try await requests
        #expect(afterKill.values.allSatisfy { $0.status == 200 })
        let survivorsMoved = paths.filter {
            afterAdd[$0]?.node != "127.0.0.1:\(victim)" && afterKill[$0]?.node != afterAdd[$0]?.node
        }
        #expect(survivorsMoved.isEmpty)
        #expect(cluster.origin.stats.total == Self.sources)
        #expect(try await cluster.storedKeys("results/").count == paths.count)
    }

    /// Sends every path (a path listed twice is sent twice) with `concurrency` clients; per path, the first failed
    /// answer, or else the last one.
    static func request(
        _ paths: [String], through cluster: Cluster, concurrency: Int
    ) async throws -> [String: (status: Int, node: String)] {
        try await withThrowingTaskGroup(of: [(String, Int, String)].self) { group in
            for worker in 0..<concurrency {
                group.addTask {
                    var answers: [(String, Int, String)] = []
                    for (index, path) in paths.enumerated() where index % concurrency == worker {
                        let (status, node) = try await cluster.get(path)
                        answers.append((path, status, node))
                    }
                    return answers
                }
            }
            var answers: [String: (status: Int, node: String)] = [:]
            for try await batch in group {
                // A failed answer is kept over later ones, so a failure is never hidden by a retry of the same path.
                for (path, status, node) in batch where answers[path].map({ $0.status == 200 }) ?? true {
                    answers[path] = (status, node)
                }
            }
            return answers
        }
    }
}
