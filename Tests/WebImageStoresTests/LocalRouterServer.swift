import Hummingbird
import HummingbirdCore
import ServiceLifecycle

/// A test's own Hummingbird server on 127.0.0.1, on a free port, answering with a router: the fake stores and
/// collectors run on it. It stops through a graceful shutdown of its service group: a cancelled server can drop a
/// connection's writer mid-request, which NIO reports with a trap.
final class LocalRouterServer: Sendable {
    let port: Int
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    private init(port: Int, group: ServiceGroup, task: Task<Void, any Error>) {
        self.port = port
        self.group = group
        self.task = task
    }

    /// Starts `router` over `server` (plain HTTP/1.1 by default) and returns once it listens.
    static func start(
        _ router: Router<BasicRequestContext>, server: HTTPServerBuilder = .http1()
    ) async throws -> LocalRouterServer {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router, server: server, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) })
        let group = ServiceGroup(configuration: .init(services: [app], logger: app.logger))
        let task = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            await group.triggerGracefulShutdown()
            _ = await task.result
            throw CancellationError()
        }
        return LocalRouterServer(port: port, group: group, task: task)
    }

    func stop() async {
        await group.triggerGracefulShutdown()
        _ = await task.result
    }
}
