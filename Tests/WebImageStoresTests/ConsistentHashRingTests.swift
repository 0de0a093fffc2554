import AsyncHTTPClient
import Foundation
import Testing

@testable import WebImageStores

/// Our ring against nginx's own `hash … consistent` upstream: the same node for 10,000 keys.
@Suite struct ConsistentHashRingTests {
    @Test func choosesTheSameNodeAsNginxFor10000Keys() async throws {
        let backends = try (0..<4).map { _ in try LocalProcess.freePort() }
        let front = try LocalProcess.freePort()
        let names = backends.map { "127.0.0.1:\($0)" }
        let weights = [1, 2, 1, 1]
        let servers = zip(names, weights).map { "server \($0) weight=\($1);" }.joined(separator: " ")
        let backendBlocks = names.map { "server { listen \($0); location / { return 200 \"\($0)\"; } }" }
        let http = """
            upstream nodes { hash $arg_key consistent; \(servers) }
            server { listen 127.0.0.1:\(front); location / { proxy_pass http://nodes; } }
            \(backendBlocks.joined(separator: "\n"))
            """
        let nginx = try await Nginx.start(http: http, readyURL: "http://\(names[0])/")
        defer { nginx.stop() }
        let ring = ConsistentHashRing(servers: names, weights: weights)
        let keys = (0..<10_000).map { "/sig/rs:fill:\($0 % 97):\($0 % 13)/plain/http://origin/\($0).jpg" }
        let mismatches = try await withThrowingTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var mismatches = 0
                    for (index, key) in keys.enumerated() where index % 8 == worker {
                        var components = URLComponents(string: "http://127.0.0.1:\(front)/")!
                        components.queryItems = [URLQueryItem(name: "key", value: key)]
                        // nginx hashes $arg_key as sent, percent-encoded: hash the same bytes here.
                        let sent = components.percentEncodedQuery!.dropFirst("key=".count)
                        let response = try await HTTPClient.shared.execute(
                            HTTPClientRequest(url: components.url!.absoluteString), timeout: .seconds(5))
                        let body = String(buffer: try await response.body.collect(upTo: 1024))
                        if body != ring.server(for: String(sent)) { mismatches += 1 }
                    }
                    return mismatches
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }

    @Test func removingANodeMovesOnlyItsKeys() {
        let names = (1...3).map { "10.0.0.\($0):8080" }
        let before = ConsistentHashRing(servers: names)
        let after = ConsistentHashRing(servers: Array(names.prefix(2)))
        let keys = (0..<5000).map { "key-\($0)" }
        for key in keys where before.server(for: key) != names[2] {
            #expect(after.server(for: key) == before.server(for: key))
        }
        let share = Double(keys.filter { before.server(for: $0) == names[2] }.count) / Double(keys.count)
        #expect(share > 0.2 && share < 0.46)
        #expect(ConsistentHashRing(servers: []).server(for: "x") == nil)
    }
}
