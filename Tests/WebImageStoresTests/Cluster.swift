import AsyncHTTPClient
import Foundation
import WebImage
import WebImageServer
import WebImageTesting

@testable import WebImageStores

/// A real cluster on 127.0.0.1: `webimage serve` processes (the built binary) behind a real nginx hashing the URL
/// (`hash $request_uri consistent`), sharing a tier in a real SeaweedFS, in front of a counting test origin.
struct Cluster {
    private(set) var seaweed: SeaweedFS
    let origin: TestImageServer
    let nginx: Nginx
    /// nginx's port.
    let front: Int
    /// The running nodes by port.
    private(set) var nodes: [Int: LocalProcess]
    /// The ports in nginx's `upstream` block, in order (a killed node stays listed, as in production).
    private(set) var upstream: [Int]
    let home: URL

    static let bucket = "cluster"
    static let location = "s3://cluster/c"

    /// The built `webimage` executable next to the test bundle.
    static var executable: String? {
        var candidates = [
            Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        ]
        candidates += candidates.map { $0.deletingLastPathComponent() }
        return candidates.map { $0.appendingPathComponent("webimage").path }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts an origin serving `sources` distinct JPEGs at `/s0.jpg`, `/s1.jpg`, …, a cluster of `nodes` in front of
    /// it, runs `body` and stops everything (also when `body` throws).
    static func run(
        sources: Int, nodes: Int, _ body: (inout Cluster) async throws -> Void
    ) async throws {
        let origin = try await startOrigin(sources: sources)
        var cluster: Cluster
        do {
            cluster = try await start(nodes: nodes, origin: origin)
        } catch {
            try await origin.shutdown()
            throw error
        }
        do {
            try await body(&cluster)
        } catch {
            cluster.stop()
            try await origin.shutdown()
            throw error
        }
        cluster.stop()
        try await origin.shutdown()
    }

    /// A started origin serving `sources` distinct 96x64 JPEGs at `/s0.jpg`, `/s1.jpg`, …, counting requests per path.
    static func startOrigin(sources: Int) async throws -> TestImageServer {
        let origin = TestImageServer()
        try await origin.start()
        for index in 0..<sources {
            let pixels = PixelBuffer(
                width: 96, height: 64,
                filledWith: RGBA(red: UInt8(index * 5), green: UInt8(255 - index * 5), blue: UInt8(index % 7 * 30)))
            let jpeg = try ImageCoders.default.encode(Image(pixels: pixels), as: .jpeg, options: .default)
            origin.register(jpeg, at: "/s\(index).jpg", contentType: "image/jpeg")
        }
        return origin
    }

    /// Starts the store, the origin, `count` nodes and nginx.
    static func start(nodes count: Int, origin: TestImageServer) async throws -> Cluster {
        let seaweed = try await SeaweedFS.start()
        do {
            let setup = S3Client(
                configuration: .init(
                    endpoint: seaweed.endpoint, credentials: seaweed.credentials, timeout: .seconds(10)))
            try await setup.createBucketReadyForWrites(bucket)
            try await setup.shutdown()
            let home = try LocalProcess.temporaryDirectory("cluster")
            var nodes: [Int: LocalProcess] = [:]
            for _ in 0..<count {
                let port = try LocalProcess.freePort()
                nodes[port] = try await startNode(port: port, seaweed: seaweed, home: home)
            }
            let ports = nodes.keys.sorted()
            let front = try LocalProcess.freePort()
            let nginx = try await Nginx.start(
                http: http(front: front, ports: ports), readyURL: "http://127.0.0.1:\(front)/health")
            return Cluster(
                seaweed: seaweed, origin: origin, nginx: nginx, front: front, nodes: nodes, upstream: ports, home: home)
        } catch {
            seaweed.process.stop()
            throw error
        }
    }

    /// A node on `port` with its own cache directory (kept across restarts, as a node's disk is).
    static func startNode(port: Int, seaweed: SeaweedFS, home: URL) async throws -> LocalProcess {
        guard let executable else { throw LocalProcessError.missing("webimage was not built next to the tests") }
        let directory = home.appendingPathComponent("node-\(port)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try await LocalProcess.startAnswering(
            executable,
            [
                "serve", "--port", "\(port)", "--cache-dir", directory.appendingPathComponent("cache").path,
                "--no-auto-webp", "--allow-loopback-sources", "--shared-store", location,
                "--shared-store-endpoint", seaweed.endpoint.absoluteString, "--shared-store-timeout", "2",
            ], in: directory, log: "serve",
            environment: [
                "WEBIMAGE_S3_ACCESS_KEY": seaweed.credentials.accessKey,
                "WEBIMAGE_S3_SECRET_KEY": seaweed.credentials.secretKey,
            ], readyURL: "http://127.0.0.1:\(port)/health")
    }

    /// nginx's `http { }` body: the ring, retries on a dead node, and the chosen node in `X-Upstream`. Nodes are never
    /// marked failed (`max_fails=0`): a rolling restart faster than `fail_timeout` would mark all of them, and nginx
    /// would answer 502 with no live upstream (docs/scale-out.md); a refused connection is retried on the next node.
    static func http(front: Int, ports: [Int]) -> String {
        """
        upstream nodes {
            hash $request_uri consistent;
            \(ports.map { "server 127.0.0.1:\($0) max_fails=0;" }.joined(separator: "\n    "))
        }
        server {
            listen 127.0.0.1:\(front);
            location / {
                proxy_pass http://nodes;
                proxy_next_upstream error timeout http_502 http_503;
                proxy_connect_timeout 1s;
                add_header X-Upstream $upstream_addr always;
            }
        }
        """
    }

    /// Kills a node with SIGKILL; nginx still lists it.
    mutating func kill(_ port: Int) {
        nodes.removeValue(forKey: port)?.stop()
    }

    /// Starts a node on `port` (again) and, when new, adds it to nginx's ring with a reload.
    mutating func start(_ port: Int) async throws {
        nodes[port] = try await Self.startNode(port: port, seaweed: seaweed, home: home)
        if !upstream.contains(port) {
            upstream.append(port)
            try await nginx.reload(http: Self.http(front: front, ports: upstream))
        }
    }

    /// Restarts a node as a deploy does: SIGTERM, wait for its exit, start it on the same port, wait until it answers.
    /// Returns the exit status of the stopped process.
    mutating func restart(_ port: Int) async throws -> Int32 {
        let status = nodes.removeValue(forKey: port)?.terminate() ?? -1
        nodes[port] = try await Self.startNode(port: port, seaweed: seaweed, home: home)
        return status
    }

    /// Kills the shared tier's process (SIGKILL).
    func killStore() {
        seaweed.process.stop()
        try? FileManager.default.removeItem(at: home)
    }

    /// Starts the shared tier again on its data directory and ports, and waits until it takes writes (the first one
    /// after a restart can outlast the nodes' store timeout, which would skip the tier, by design).
    mutating func restartStore() async throws {
        seaweed = try await seaweed.restarted()
        let client = S3Client(
            configuration: .init(endpoint: seaweed.endpoint, credentials: seaweed.credentials, timeout: .seconds(30)))
        do {
            try await client.warmUp(Self.bucket)
        } catch {
            try await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }

    /// The sum over the running nodes of a counter in their `/metrics` (every label combination of `name`, or
    /// those whose labels contain `labels`).
    func metric(_ name: String, labels: String = "") async throws -> Double {
        var total = 0.0
        for port in nodes.keys { total += try await Self.metric(name, labels: labels, port: port) }
        return total
    }

    /// A counter in the `/metrics` of the node on `port`, summed over its label combinations (or those whose labels
    /// contain `labels`).
    static func metric(_ name: String, labels: String = "", port: Int) async throws -> Double {
        let response = try await HTTPClient.shared.execute(
            HTTPClientRequest(url: "http://127.0.0.1:\(port)/metrics"), timeout: .seconds(10))
        let text = String(buffer: try await response.body.collect(upTo: 4 << 20))
        var total = 0.0
        for line in text.split(separator: "\n") where line.hasPrefix(name + " ") || line.hasPrefix(name + "{") {
            guard labels.isEmpty || line.contains(labels), let value = line.split(separator: " ").last else { continue }
            total += Double(value) ?? 0
        }
        return total
    }

    /// `GET path` through nginx: the status and the node that answered.
    func get(_ path: String) async throws -> (status: Int, node: String) {
        try await Self.get(path, front: front)
    }

    /// `GET path` through the nginx listening on `front`.
    static func get(_ path: String, front: Int) async throws -> (status: Int, node: String) {
        let response = try await HTTPClient.shared.execute(
            HTTPClientRequest(url: "http://127.0.0.1:\(front)\(path)"), timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 16 << 20)
        // After a retry nginx lists every node it tried ("a, b"); the last one answered.
        let node = response.headers.first(name: "X-Upstream")?.split(separator: ",").last
        return (Int(response.status.code), node.map { $0.trimmingCharacters(in: .whitespaces) } ?? "")
    }

    /// The keys in the shared tier below `path`.
    func storedKeys(_ path: String) async throws -> [String] {
        let client = S3Client(
            configuration: .init(endpoint: seaweed.endpoint, credentials: seaweed.credentials, timeout: .seconds(10)))
        let keys = try await client.list(bucket: Self.bucket, prefix: "c/" + path)
        try await client.shutdown()
        return keys
    }

    func stop() {
        nginx.stop()
        for node in nodes.values { node.stop() }
        seaweed.process.stop()
        try? FileManager.default.removeItem(at: home)
    }
}
