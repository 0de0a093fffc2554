import AsyncHTTPClient
import Foundation
import NIOCore

/// Sends batches of spans to a Datadog agent: `PUT /v0.4/traces`, msgpack, each request bounded by a timeout; a
/// batch the agent does not take is dropped.
struct DatadogTraceSender: Sendable {
    let agent: URL
    let log: DropLog
    private let client: HTTPClient

    /// The spans were dropped because too many were waiting.
    struct Full: Error, CustomStringConvertible {
        var description: String { "more than \(DatadogTracer.maximumPending) spans waiting to be sent" }
    }

    /// The agent refused a batch.
    struct Refused: Error, CustomStringConvertible {
        let status: UInt
        var description: String { "HTTP \(status)" }
    }

    init(agent: URL, log: DropLog) {
        self.agent = agent
        self.log = log
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow, timeout: .init(connect: .seconds(2), read: .seconds(5)))
        configuration.tracing.tracer = nil
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// The traces URL of the agent.
    var tracesURL: String {
        let base = agent.absoluteString
        return (base.hasSuffix("/") ? String(base.dropLast()) : base) + "/v0.4/traces"
    }

    /// Sends `spans` (nothing when empty).
    func send(_ spans: [DatadogSpanRecord]) async {
        guard !spans.isEmpty else { return }
        let (body, traces) = DatadogSpanRecord.payload(spans)
        var request = HTTPClientRequest(url: tracesURL)
        request.method = .PUT
        request.headers.add(name: "Content-Type", value: "application/msgpack")
        request.headers.add(name: "X-Datadog-Trace-Count", value: String(traces))
        request.headers.add(name: "Datadog-Meta-Lang", value: "swift")
        request.body = .bytes(ByteBuffer(bytes: body))
        do {
            let response = try await client.execute(request, timeout: .seconds(5))
            _ = try await response.body.collect(upTo: 64 << 10)
            guard (200..<300).contains(response.status.code) else { throw Refused(status: response.status.code) }
        } catch {
            log.dropped("Datadog agent \(tracesURL)", error)
        }
    }

    /// Closes the client.
    func shutdown() async { try? await client.shutdown() }
}
