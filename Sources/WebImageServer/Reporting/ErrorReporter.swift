import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import WebImage

/// Sends the reports of the errors the server answers with to every vendor that is on, in the background: a report
/// is queued (at most ``ErrorReportingConfiguration/queueLimit``, beyond which it is dropped) and sent by one task,
/// a few at a time, through the reporter's own HTTP client with a timeout, so a slow or dead endpoint never delays
/// or fails a request. Each report is counted in `webimage_error_reports_total` (`reporter`, `result`: `sent`,
/// `failed`, `dropped`); failures are logged at most once a minute.
final class ErrorReporter: Sendable {
    /// What became of one report, the labels of `webimage_error_reports_total`.
    struct Delivery: Hashable, Sendable {
        let reporter: String
        /// `sent`, `failed` or `dropped`.
        let result: String
    }

    /// The queue and its sender.
    private struct State: Sendable {
        var pending: [(reporter: String, request: VendorRequest)] = []
        /// The task sending what is pending; `nil` when nothing is.
        var sender: Task<Void, Never>?
        var lastWarning: ContinuousClock.Instant?
        var stopped = false
    }

    /// How many reports are sent at once.
    static let batchSize = 8
    /// The least time between two warnings.
    static let warningInterval = Duration.seconds(60)

    private let reporters: [any ErrorReporting]
    private let configuration: ErrorReportingConfiguration
    private let client: HTTPClient
    private let logger: Logger
    private let count: @Sendable (Delivery) -> Void
    private let state = Locked(State())

    /// A reporter for the vendors `configuration` turns on; `nil` when none is. `count` records each delivery.
    init?(
        _ configuration: ErrorReportingConfiguration, logger: Logger, count: @escaping @Sendable (Delivery) -> Void
    ) {
        let reporters = configuration.reporters
        guard !reporters.isEmpty else { return nil }
        self.reporters = reporters
        self.configuration = configuration
        self.logger = logger
        self.count = count
        let timeout = TimeAmount(configuration.timeout)
        var http = HTTPClient.Configuration(
            redirectConfiguration: .disallow, timeout: .init(connect: timeout, read: timeout))
        http.connectionPool.idleTimeout = .seconds(30)
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: http)
    }

    /// Whether a response that could not be written is reported (imgproxy's `IMGPROXY_REPORT_IO_ERRORS`).
    var reportsIOErrors: Bool { configuration.reportsIOErrors }

    /// Queues the report of `error`, answered to `method` `path` on `host`, when imgproxy would report it
    /// (``ImageServerError/isReported(downloadingErrors:)``).
    func report(
        _ error: ImageServerError, method: String, host: String, path: String, source: URL?, requestID: String,
        errorClass: String? = nil
    ) {
        guard errorClass != nil || error.isReported(downloadingErrors: configuration.reportsDownloadingErrors) else {
            return
        }
        let report = ErrorReport(
            error, errorClass: errorClass, method: method, host: host, path: path, source: source,
            requestID: requestID, serverName: configuration.serverName)
        for reporter in reporters { enqueue(reporter.name, reporter.request(for: report)) }
    }

    /// Waits for the reports queued to be sent, at most the timeout, then stops the client; reports made after are
    /// dropped.
    func shutdown() async {
        let sender = state.withLock { state in
            state.stopped = true
            return state.sender
        }
        if let sender {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await sender.value }
                group.addTask { [timeout = configuration.timeout] in try? await Task.sleep(for: timeout) }
                await group.next()
                sender.cancel()
                group.cancelAll()
            }
        }
        try? await client.shutdown()
    }

    private func enqueue(_ reporter: String, _ request: VendorRequest) {
        let queued = state.withLock { state in
            guard !state.stopped, state.pending.count < configuration.queueLimit else { return false }
            state.pending.append((reporter, request))
            if state.sender == nil { state.sender = Task { await self.drain() } }
            return true
        }
        if !queued {
            count(Delivery(reporter: reporter, result: "dropped"))
            warn("an error report to \(reporter) was dropped: the queue is full")
        }
    }

    /// Sends what is pending, `batchSize` at a time, until nothing is.
    private func drain() async {
        while true {
            let batch = state.withLock { state in
                let batch = Array(state.pending.prefix(Self.batchSize))
                state.pending.removeFirst(batch.count)
                if batch.isEmpty { state.sender = nil }
                return batch
            }
            guard !batch.isEmpty else { return }
            await withTaskGroup(of: Void.self) { group in
                for item in batch { group.addTask { await self.send(item.request, to: item.reporter) } }
            }
        }
    }

    private func send(_ vendor: VendorRequest, to reporter: String) async {
        var request = HTTPClientRequest(url: vendor.url.absoluteString)
        request.method = .POST
        for (name, value) in vendor.headers { request.headers.add(name: name, value: value) }
        request.headers.add(name: "User-Agent", value: "webimage/\(FetchSettings.currentVersion)")
        request.body = .bytes(ByteBuffer(bytes: vendor.body))
        let status: UInt
        do {
            let response = try await client.execute(request, timeout: TimeAmount(configuration.timeout))
            status = response.status.code
            _ = try? await response.body.collect(upTo: 65_536)
        } catch {
            count(Delivery(reporter: reporter, result: "failed"))
            warn("an error report to \(reporter) could not be sent: \(error)")
            return
        }
        guard (200..<300).contains(status) else {
            count(Delivery(reporter: reporter, result: "failed"))
            warn("an error report to \(reporter) was refused: HTTP \(status)")
            return
        }
        count(Delivery(reporter: reporter, result: "sent"))
    }

    /// Logs `message` unless a warning was logged less than a minute ago.
    private func warn(_ message: String) {
        let now = ContinuousClock.now
        let due = state.withLock { state in
            if let last = state.lastWarning, last + Self.warningInterval > now { return false }
            state.lastWarning = now
            return true
        }
        if due { logger.warning("\(message) (further failures within a minute are not logged)") }
    }
}
