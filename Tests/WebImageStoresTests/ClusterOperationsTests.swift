import Foundation
import Synchronization
import Testing
import WebImage
import WebImageServer
import WebImageTesting

@testable import WebImageStores

/// Deploys and outages on a real cluster (3 `webimage serve` processes, nginx, SeaweedFS): a rolling restart under a
/// steady load, then the shared tier killed and started again.
@Suite(.serialized) struct ClusterOperationsTests {
    static let sources = 20
    static let widths = [20, 30, 40]

    /// One answer of the steady load: when it was sent, its status (0 when the request failed) and its latency.
    struct Answer: Sendable {
        let sent: ContinuousClock.Instant
        let status: Int
        let seconds: Double
    }

    /// A flag one task sets and another reads (`state` is guarded by its mutex).
    final class Flag: Sendable {
        private let state = Mutex(false)
        var isSet: Bool { state.withLock { $0 } }
        func set() { state.withLock { $0 = true } }
    }

    @Test func rollingRestartUnderLoadThenTheStoreDownAndBack() async throws {
        try await Cluster.run(sources: Self.sources, nodes: 3) { try await check(&$0) }
    }

    private func urls(_ cluster: Cluster, widths: [Int], sources: Range<Int> = 0..<sources) -> [String] {
        let builder = ImageURLBuilder(signer: nil)
        return sources.flatMap { index in
            widths.map { width in
                var options = ProcessingOptions()
                options.width = width
                return builder.url(options, source: cluster.origin.url("/s\(index).jpg").absoluteString)
            }
        }
    }

    private func check(_ cluster: inout Cluster) async throws {
        let paths = urls(cluster, widths: Self.widths)
        let warm = try await ClusterTests.request(paths, through: cluster, concurrency: 8)
        #expect(warm.values.allSatisfy { $0.status == 200 })
        #expect(cluster.origin.stats.total == Self.sources)

        // 4. Rolling restart (SIGTERM, wait for the exit, start, wait until it answers, next) under 20 requests/s:
        //    no request fails, and in the 10 s after the last restart the requests answered without an origin
        //    fetch are at least 99 %.
        let stop = Flag()
        let load = Self.steadyLoad(paths, front: cluster.front, perSecond: 20, stop: stop)
        try await Task.sleep(for: .seconds(1))
        for port in cluster.upstream {
            let status = try await cluster.restart(port)
            #expect(status == 0, "a node stopped by SIGTERM exits 0")
        }
        let restarted = ContinuousClock.now
        let fetchesAtRestart = cluster.origin.stats.total
        try await Task.sleep(for: .seconds(10))
        stop.set()
        let answers = await load.value
        let failed = answers.filter { $0.status != 200 }
        #expect(
            failed.count == 0,
            "\(failed.count) of \(answers.count) requests failed, statuses \(Set(failed.map(\.status)).sorted())")
        let window = answers.filter { $0.sent >= restarted }
        #expect(window.count >= 150, "the load kept its rate: \(window.count) requests in 10 s")
        let fetches = cluster.origin.stats.total - fetchesAtRestart
        #expect(Double(fetches) <= 0.01 * Double(window.count), "\(fetches) origin fetches after the restarts")

        // 5. The shared tier down: hits still come from the nodes' caches, fast; new results come from the origin;
        //    the tier's errors are counted in /metrics.
        cluster.killStore()
        let errorsBefore = try await cluster.metric("webimage_shared_store_errors_total")
        let hits = try await Self.timed(paths + paths, front: cluster.front, concurrency: 4)
        #expect(hits.allSatisfy { $0.status == 200 })
        let p99 = hits.map(\.seconds).sorted()[hits.count * 99 / 100]
        #expect(p99 < 0.25, "p99 of cache hits with the tier down: \(p99) s")
        let duringOutage = urls(cluster, widths: [50], sources: 0..<5)
        let made = try await ClusterTests.request(duringOutage, through: cluster, concurrency: 4)
        #expect(made.values.allSatisfy { $0.status == 200 })
        let errorsAfter = try await cluster.metric("webimage_shared_store_errors_total")
        #expect(errorsAfter > errorsBefore, "store errors counted: \(errorsBefore) -> \(errorsAfter)")

        // Back up: writes resume (the results made during the outage were not written; the next new ones are).
        try await cluster.restartStore()
        #expect(try await cluster.storedKeys("results/").count == paths.count)
        let afterOutage = urls(cluster, widths: [60], sources: 0..<5)
        let resumed = try await ClusterTests.request(afterOutage, through: cluster, concurrency: 4)
        #expect(resumed.values.allSatisfy { $0.status == 200 })
        #expect(try await cluster.storedKeys("results/").count == paths.count + afterOutage.count)
    }

    /// Sends `paths` round-robin through nginx at `perSecond` requests per second, each on its own task so a slow
    /// answer does not slow the rate, until `stop` is set.
    static func steadyLoad(
        _ paths: [String], front: Int, perSecond: Int, stop: Flag
    ) -> Task<[Answer], Never> {
        Task {
            await withTaskGroup(of: Answer.self) { group in
                var index = 0
                while !stop.isSet {
                    let path = paths[index % paths.count]
                    index += 1
                    group.addTask { await Self.answer(path, front: front) }
                    try? await Task.sleep(for: .milliseconds(1000 / perSecond))
                }
                var answers: [Answer] = []
                for await answer in group { answers.append(answer) }
                return answers
            }
        }
    }

    /// Sends every path with `concurrency` clients and times each answer.
    static func timed(_ paths: [String], front: Int, concurrency: Int) async throws -> [Answer] {
        await withTaskGroup(of: [Answer].self) { group in
            for worker in 0..<concurrency {
                group.addTask {
                    var answers: [Answer] = []
                    for (index, path) in paths.enumerated() where index % concurrency == worker {
                        answers.append(await Self.answer(path, front: front))
                    }
                    return answers
                }
            }
            var answers: [Answer] = []
            for await batch in group { answers += batch }
            return answers
        }
    }

    private static func answer(_ path: String, front: Int) async -> Answer {
        let sent = ContinuousClock.now
        let status: Int
        do {
            status = try await Cluster.get(path, front: front).status
        } catch {
            status = 0
        }
        let elapsed = sent.duration(to: .now)
        return Answer(
            sent: sent, status: status,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
    }
}
