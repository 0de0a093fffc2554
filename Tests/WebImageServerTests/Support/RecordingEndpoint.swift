import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import Testing

/// An HTTP endpoint on 127.0.0.1 port 0 that answers every request `200 {}` and records it: a fake Datadog agent,
/// CloudWatch or any other collector for the monitoring tests.
final class RecordingEndpoint: Sendable {
    /// One recorded request.
    struct Received: Sendable {
        let method: String
        let path: String
        let headers: [String: String]
        let body: [UInt8]
    }

    let port: Int
    private let received: NIOLockedValueBox<[Received]>
    private let task: Task<Void, any Error>

    init() async throws {
        let received = NIOLockedValueBox<[Received]>([])
        let router = Router()
        router.on("**", method: .put) { request, _ in try await Self.record(request, into: received) }
        for path: RouterPath in ["/", "**"] {
            router.on(path, method: .post) { request, _ in try await Self.record(request, into: received) }
        }
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) })
        task = Task { try await app.runService() }
        var iterator = stream.makeAsyncIterator()
        port = try #require(await iterator.next())
        self.received = received
    }

    /// Everything received so far.
    var requests: [Received] { received.withLockedValue { $0 } }

    /// The requests received, waiting (up to 30 s, polling) until `satisfied` holds for them.
    func requests(until satisfied: ([Received]) -> Bool) async -> [Received] {
        for _ in 0..<300 {
            let now = requests
            if satisfied(now) { return now }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return requests
    }

    /// Stops the server.
    func stop() { task.cancel() }

    private static func record(
        _ request: Request, into received: NIOLockedValueBox<[Received]>
    ) async throws -> Response {
        let body = try await request.body.collect(upTo: 16 << 20)
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        let entry = Received(
            method: request.method.rawValue, path: request.uri.path, headers: headers,
            body: Array(buffer: body))
        received.withLockedValue { $0.append(entry) }
        return Response(
            status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: .init(string: "{}")))
    }
}
