import AsyncHTTPClient
import Foundation
import NIOCore

/// Sends batches to New Relic: spans to the Trace API (`Data-Format: newrelic`, `Data-Format-Version: 1`) and
/// `TransactionError` events to the Event API, the license key in `Api-Key`, each post bounded by a timeout; a batch
/// the endpoint does not take is dropped.
struct NewRelicSender: Sendable {
    let settings: NewRelicMonitoring
    let log: DropLog
    /// The client of every post (and of the collector's handshake).
    let client: HTTPClient

    /// The records were dropped because too many were waiting.
    struct Full: Error, CustomStringConvertible {
        var description: String { "more than \(NewRelicTracer.maximumPending) spans or events waiting to be sent" }
    }

    /// The endpoint refused a batch.
    struct Refused: Error, CustomStringConvertible {
        let status: UInt
        let body: String
        var description: String { "HTTP \(status): \(body.prefix(300))" }
    }

    init(settings: NewRelicMonitoring, log: DropLog) {
        self.settings = settings
        self.log = log
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow, timeout: .init(connect: .seconds(2), read: .seconds(5)))
        configuration.tracing.tracer = nil
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Posts `spans` to the Trace API (nothing when empty), with the application's attributes in `common`.
    func send(_ spans: [NewRelicSpanRecord]) async {
        guard !spans.isEmpty else { return }
        var common: [String: NewRelicValue] = [
            "service.name": .string(settings.appName), "appName": .string(settings.appName),
            "instrumentation.provider": "webimage",
        ]
        for (name, value) in settings.labels { common[name] = .string(value) }
        await post(
            settings.tracesURL, headers: [("Data-Format", "newrelic"), ("Data-Format-Version", "1")],
            body: { try NewRelicSpanRecord.payload(spans, common: common) })
    }

    /// Posts `events` to the Event API of `account` (nothing when empty or without an account).
    func send(events: [[String: NewRelicValue]], account: String?) async {
        guard !events.isEmpty, let account else { return }
        let url = settings.eventsURL(account: account)
        await post(url, headers: [], body: { try NewRelicSpanRecord.events(events) })
    }

    /// Closes the client.
    func shutdown() async { try? await client.shutdown() }

    private func post(_ url: String, headers: [(String, String)], body: () throws -> Data) async {
        do {
            var request = HTTPClientRequest(url: url)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.headers.add(name: "Api-Key", value: settings.key)
            for (name, value) in headers { request.headers.add(name: name, value: value) }
            request.body = .bytes(ByteBuffer(bytes: try body()))
            let response = try await client.execute(request, timeout: .seconds(5))
            let text = try await response.body.collect(upTo: 64 << 10)
            guard (200..<300).contains(response.status.code) else {
                throw Refused(status: response.status.code, body: String(buffer: text))
            }
        } catch {
            log.dropped("New Relic \(url)", error)
        }
    }
}
