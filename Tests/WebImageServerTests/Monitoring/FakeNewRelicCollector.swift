import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import Testing

/// A fake of New Relic on 127.0.0.1 port 0: the agent protocol's `invoke_raw_method` answered from a script per
/// method (each call takes the next answer, the last one again and again), every other post answered `200 {}` (the
/// Trace, Event and Metric APIs), and every request recorded with its query.
final class FakeNewRelicCollector: Sendable {
    /// One answer: a status and a body.
    struct Answer: Sendable {
        let status: HTTPResponse.Status
        let body: String

        /// `200` with `{"return_value": value}`.
        static func value(_ json: String) -> Answer {
            Answer(status: .ok, body: #"{"return_value":\#(json)}"#)
        }
    }

    /// One recorded request.
    struct Received: Sendable {
        let path: String
        let query: [String: String]
        let headers: [String: String]
        let body: [UInt8]
    }

    let port: Int
    private let received: NIOLockedValueBox<[Received]>
    private let task: Task<Void, any Error>

    /// The preconnect's answer redirecting to the fake itself, and a connect answer naming account 5678, trusted key
    /// 99, application 4321.
    static let preconnect = Answer.value(#"{"redirect_host":"127.0.0.1"}"#)
    static let connect = Answer.value(
        #"{"agent_run_id":"BCDEF","account_id":5678,"trusted_account_key":"99","primary_application_id":"4321","#
            + #""entity_guid":"MTIzNHxBUE18QVBQTElDQVRJT058NDMyMQ","sampling_target":10}"#)

    init(
        answers: [String: [Answer]] = ["preconnect": [preconnect], "connect": [connect]]
    )
        async throws
    {
        let received = NIOLockedValueBox<[Received]>([])
        let script = NIOLockedValueBox(answers)
        let router = Router()
        for path: RouterPath in ["/", "**"] {
            router.on(path, method: .post) { request, _ in
                let body = try await request.body.collect(upTo: 16 << 20)
                var headers: [String: String] = [:]
                for field in request.headers { headers[field.name.canonicalName] = field.value }
                var query: [String: String] = [:]
                for (name, value) in request.uri.queryParameters { query[String(name)] = String(value) }
                let entry = Received(
                    path: request.uri.path, query: query, headers: headers, body: Array(buffer: body))
                received.withLockedValue { $0.append(entry) }
                var answer = Answer(status: .ok, body: "{}")
                if request.uri.path == "/agent_listener/invoke_raw_method", let method = query["method"] {
                    answer = script.withLockedValue { script in
                        guard var queue = script[method], let first = queue.first else {
                            return Answer(status: .notFound, body: "")
                        }
                        if queue.count > 1 { queue.removeFirst() }
                        script[method] = queue
                        return first
                    }
                }
                return Response(
                    status: answer.status, headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: .init(string: answer.body)))
            }
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

    /// The fake's base URL.
    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Everything received so far.
    var requests: [Received] { received.withLockedValue { $0 } }

    /// The collector calls received, by method.
    func calls(_ method: String) -> [Received] {
        requests.filter {
            $0.path == "/agent_listener/invoke_raw_method" && $0.query["method"] == method
        }
    }

    /// Stops the server.
    func stop() { task.cancel() }
}
