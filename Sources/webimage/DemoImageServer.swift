import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// The demo's HTTP server: a Hummingbird application on 127.0.0.1, on a port the system picks, answering
/// `GET /<name>` with a sample's bytes (`Content-Type` sniffed, `Content-Length` set) and 404 otherwise.
enum DemoImageServer {
    /// The server stopped before it listened.
    struct NotListening: Error, CustomStringConvertible {
        var description: String { "the demo image server did not start listening on 127.0.0.1" }
    }

    /// Serves `samples` while `body` runs, handing it the base URL (`http://127.0.0.1:<port>/`); the server shuts
    /// down gracefully when `body` returns or throws.
    static func serving<T>(
        _ samples: [DemoSamples.Sample], _ body: (URL) async throws -> T
    ) async throws -> T {
        let files = Dictionary(samples.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let router = Router()
        router.get(":name") { _, context -> Response in
            guard let name = context.parameters.get("name"), let sample = files[name] else {
                return Response(status: .notFound)
            }
            return Response(
                status: .ok, headers: [.contentType: sample.contentType],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: sample.data)))
        }
        var logger = Logger(label: "webimage-demo-server")
        logger.logLevel = .warning
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: nil),
            onServerRunning: { channel in
                if let port = channel.localAddress?.port { listening.yield(port) }
                listening.finish()
            },
            logger: logger)
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [app], logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                defer { listening.finish() }
                try await group.run()
            }
            guard let port = await ports.first(where: { _ in true }), let url = URL(string: "http://127.0.0.1:\(port)/")
            else {
                try await tasks.waitForAll()
                throw NotListening()
            }
            let result: Result<T, any Error>
            do {
                result = .success(try await body(url))
            } catch {
                result = .failure(error)
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            return try result.get()
        }
    }
}
