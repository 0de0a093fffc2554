import Foundation
import Hummingbird
import NIOCore
import WebImage

/// An error-reporting vendor's API on 127.0.0.1 port 0 that records what it receives: the path, the headers and
/// the body of each `POST`, answered 202. While ``holds`` is on, each request waits until ``release()``.
final class FakeReportEndpoint: Sendable {
    /// One request received.
    struct Received: Sendable {
        let path: String
        /// The headers, names in lower case.
        let headers: [String: String]
        let body: Data

        /// The body as a JSON object; for a Sentry envelope, its last line (the event).
        var json: [String: Any] {
            let line = body.split(separator: 0x0A).last ?? body[...]
            return (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any] ?? [:]
        }
    }

    let port: Int
    private let received = Locked<[Received]>([])
    private let holding: Locked<Bool>
    private let task: Task<Void, any Error>

    /// Starts the endpoint; with `holds`, requests wait for ``release()``.
    init(holds: Bool = false) async throws {
        let received = self.received
        let holding = Locked(holds)
        self.holding = holding
        let router = Router()
        let record: @Sendable (Request) async throws -> Response = { request in
            let body = try await request.body.collect(upTo: 1 << 20)
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName] = field.value }
            received.withLock {
                $0.append(Received(path: request.uri.path, headers: headers, body: Data(buffer: body)))
            }
            while holding.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
            return Response(status: .accepted, body: ResponseBody(byteBuffer: ByteBuffer(string: "{}")))
        }
        router.post("/") { request, _ in try await record(request) }
        router.post("**") { request, _ in try await record(request) }
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) })
        task = Task { try await app.runService() }
        var iterator = ports.makeAsyncIterator()
        port = await iterator.next() ?? 0
    }

    /// `http://127.0.0.1:PORT`.
    var base: String { "http://127.0.0.1:\(port)" }

    /// What was received so far.
    var requests: [Received] { received.withLock { $0 } }

    /// Waits until `count` requests were received, at most `seconds`; what was received then.
    func waitFor(_ count: Int, seconds: Int = 20) async -> [Received] {
        for _ in 0..<(seconds * 50) where requests.count < count {
            try? await Task.sleep(for: .milliseconds(20))
        }
        return requests
    }

    /// Lets held requests (and all later ones) be answered.
    func release() { holding.withLock { $0 = false } }

    /// Stops the endpoint.
    func stop() async {
        release()
        task.cancel()
        _ = try? await task.value
    }
}
