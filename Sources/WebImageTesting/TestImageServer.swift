import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import WebImage

/// A real HTTP/1.1 server on 127.0.0.1 (port chosen by the system) for tests, benchmarks and demos.
///
/// It serves images you register, the package fixtures, and fault routes; it counts requests per path and the
/// requests in flight. Routes (see ``TestImageServer/Route`` docs in `TestImageServer+Routes.swift`):
///
/// | path | response |
/// |---|---|
/// | a registered path | the bytes, with `ETag`/`Last-Modified`; 304 for a matching `If-None-Match`/`If-Modified-Since`; 206 for a single `Range` (416 when unsatisfiable) |
/// | `/fixtures/<path>` | a file under ``Fixtures/directory`` |
/// | `/generated/<name>?size=N` | N deterministic JPEG-looking bytes (default 100 000), distinct per name |
/// | `/status/<code>` | that status with a short text body (429 adds `Retry-After`) |
/// | `/html` | an HTML error page with status 200 |
/// | `/huge/<bytes>` | a generated body of that size (not stored) |
/// | `/redirect/<n>?to=<path>` | a chain of n redirects ending at `to` |
/// | `/loop/a`, `/loop/b` | redirects to each other |
///
/// Query modifiers apply to every route: `delay=MS` (before the head), `gate=NAME` (hold until
/// ``openGate(_:)``), `chunked=1` (no `Content-Length`), `chunk=BYTES` (write size), `drip=MS` (pause between
/// chunks), `lie=N` (announce N bytes more than sent, then close), `truncate=N` (chunked, close after N bytes),
/// `type=MIME` (override `Content-Type`), `encoding=NAME` (add `Content-Encoding`, the body unchanged).
public final class TestImageServer: Sendable {
    /// A registered resource.
    struct Resource: Sendable {
        var data: Data
        var contentType: String
        var etag: String?
        var lastModified: String?
        /// More response headers, sent with every answer of the resource (a 304's too).
        var extraHeaders: [(String, String)] = []
    }

    /// What the server has seen.
    public struct Stats: Sendable {
        /// Requests per path (without the query).
        public var requests: [String: Int] = [:]
        /// Paths (without the query) in the order requests arrived.
        public var log: [String] = []
        /// Requests being answered now: from the arrival of the head until just before the last body bytes are
        /// written, so that a client starting its next request as soon as one completes is never over-counted.
        public var inFlight = 0
        /// The most requests answered at once since the last ``TestImageServer/resetStats()``.
        public var maxInFlight = 0
        /// Responses per path that could not be finished because the client closed the connection.
        public var aborted: [String: Int] = [:]
        /// The request headers of every request per path, in the order they arrived.
        public var headers: [String: [[(name: String, value: String)]]] = [:]
        /// The request headers of the last request per path.
        public var lastHeaders: [String: [(name: String, value: String)]] { headers.compactMapValues(\.last) }
        /// The values of the request header `name` (case-insensitive) sent for `path`, one per request that had it.
        public func values(of name: String, for path: String) -> [String] {
            (headers[path] ?? []).flatMap { $0.filter { $0.name.lowercased() == name.lowercased() }.map(\.value) }
        }
        /// All requests.
        public var total: Int { log.count }
    }

    struct State {
        var resources: [String: Resource] = [:]
        var stats = Stats()
        var openGates: Set<String> = []
        var waiters: [CheckedContinuation<Bool, Never>] = []
        var channel: (any Channel)?
        var serverTask: Task<Void, Never>?
        var connections: [ObjectIdentifier: any Channel] = [:]
        var stopping = false
        var port = 0
    }

    let state = Locked(State())

    /// Creates a stopped server; call ``start()``.
    public init() {}

    /// Binds 127.0.0.1 on a free port and starts answering.
    public func start() async throws {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(.backlog, value: 512)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(
                        wrappingChannelSynchronously: channel)
                }
            }
        // Not cancelled on shutdown: every accepted connection must reach `executeThenClose`, or NIO traps.
        let task = Task { [self] in
            await withDiscardingTaskGroup { group in
                do {
                    try await server.executeThenClose { connections in
                        for try await connection in connections {
                            group.addTask { await self.serve(connection) }
                        }
                    }
                } catch {}
            }
        }
        state.withLock { state in
            state.channel = server.channel
            state.serverTask = task
            state.port = server.channel.localAddress?.port ?? 0
        }
    }

    /// Stops the server: closes the listening socket and every connection, releases held requests.
    public func shutdown() async throws {
        let (channel, task, connections) = state.withLock { state in
            defer {
                state.channel = nil
                state.serverTask = nil
                state.connections = [:]
            }
            state.stopping = true
            return (state.channel, state.serverTask, Array(state.connections.values))
        }
        notify()  // releases requests held at gates, which see that the server stops
        try? await channel?.close()  // ends the stream of new connections once the accepted ones are handed out
        for connection in connections { try? await connection.close() }
        await task?.value
    }

    /// Registers a connection being served; `false` if the server is stopping (the caller closes it).
    func track(_ channel: any Channel) -> Bool {
        state.withLock { state in
            guard !state.stopping else { return false }
            state.connections[ObjectIdentifier(channel)] = channel
            return true
        }
    }

    func untrack(_ channel: any Channel) {
        _ = state.withLock { $0.connections.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// The port the server listens on.
    public var port: Int { state.withLock { $0.port } }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// The URL of `path` (which may carry a query), e.g. `url("/status/404")`.
    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path.hasPrefix("/") ? "" : "/")\(path)")!
    }

    /// Serves `data` at `path` with `contentType` and `headers` (such as `Cache-Control`); an `etag` of `nil` uses a
    /// hash of the bytes.
    public func register(
        _ data: Data, at path: String, contentType: String = "image/png", etag: String? = nil,
        lastModified: String? = "Wed, 21 Oct 2015 07:28:00 GMT", headers: [(String, String)] = []
    ) {
        let tag = etag ?? "\"\(String(data.hashValue, radix: 16))-\(data.count)\""
        state.withLock {
            $0.resources[path] = Resource(
                data: data, contentType: contentType, etag: tag, lastModified: lastModified, extraHeaders: headers)
        }
    }

    /// What the server has seen so far.
    public var stats: Stats { state.withLock { $0.stats } }

    /// Requests seen for `path` (without the query).
    public func requestCount(_ path: String) -> Int { state.withLock { $0.stats.requests[path] ?? 0 } }

    /// Forgets the counters (not the registered resources).
    public func resetStats() {
        state.withLock { $0.stats = Stats() }
    }

    /// Lets requests held with `gate=name` proceed, now and in future.
    public func openGate(_ name: String) {
        _ = state.withLock { $0.openGates.insert(name) }
        notify()
    }

    /// Returns once `condition` holds for ``stats``; wakes on every server event, never polls.
    public func waitUntil(_ condition: @escaping @Sendable (Stats) -> Bool) async {
        while true {
            let ready = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let ready = state.withLock { state in
                    if condition(state.stats) { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if ready { continuation.resume(returning: true) }
            }
            if ready { return }
        }
    }

    /// Returns once `count` requests for `path` have arrived.
    public func waitForRequests(_ path: String, count: Int = 1) async {
        await waitUntil { $0.requests[path, default: 0] >= count }
    }

    /// Wakes everything waiting in ``waitUntil(_:)`` or at a gate, to re-check.
    func notify() {
        let waiters = state.withLock { state in
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: false) }
    }

    /// Suspends until gate `name` is open, the server stops, or the task is cancelled.
    func pass(gate name: String) async {
        await withTaskCancellationHandler {
            while true {
                let open: Bool = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                    let open = state.withLock { state in
                        if state.openGates.contains(name) || state.stopping || Task.isCancelled { return true }
                        state.waiters.append(continuation)
                        return false
                    }
                    if open { continuation.resume(returning: true) }
                }
                if open { return }
            }
        } onCancel: {
            notify()
        }
    }

    /// Sleeps for `duration`, or less if the server stops.
    func pause(for duration: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: duration) }
            group.addTask { await self.pass(gate: "\u{0}stop") }
            await group.next()
            group.cancelAll()
        }
    }

    func update(_ change: (inout Stats) -> Void) {
        state.withLock { change(&$0.stats) }
        notify()
    }
}
