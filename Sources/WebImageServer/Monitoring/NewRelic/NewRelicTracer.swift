import Foundation
import Instrumentation
import Logging
import ServiceLifecycle
import Tracing
import WebImage

/// A swift-distributed-tracing tracer that reports to New Relic what imgproxy's Go agent reports with
/// `IMGPROXY_NEW_RELIC_KEY`: each request as the web transaction `WebTransaction/Go/request`, its stages as
/// segments (`Custom/Queue`, `Custom/Downloading source image`, `Custom/Processing image`…), sent as spans to the
/// Trace API, and a request's first error as a `TransactionError` event to the Event API (with an account id).
///
/// Bootstrap it in `InstrumentationSystem`, alone or beside other tracers in a ``TracerSet``, and run it as a service
/// beside the server (it sends what it holds every second and on graceful shutdown). Running, it also connects to New
/// Relic's collector in the background as the Go agent does (`preconnect`, then `connect`, retried after 15 s, 15 s,
/// 30 s, 1 min, 2 min, then every 5 min), to learn the account (which ``NewRelicMonitoring/accountID`` overrides), its
/// trusted key and the application's id; until an account is known, a request's error is on its spans alone and the
/// trace headers are `traceparent` alone. It continues a trace whose W3C `traceparent` (with New Relic's `tracestate`
/// entry) or `newrelic` header a request carries, and writes them into the requests to origins when the server
/// propagates the trace context with it (``ImageServerConfiguration/originTraceInstrument``, imgproxy's
/// `IMGPROXY_NEW_RELIC_PROPAGATE_EXTERNAL`). At most ``maximumPending`` spans (and as many events) wait to be sent;
/// past that, and when New Relic does not answer, they are dropped (logged at most once a minute), never a request
/// delayed.
public final class NewRelicTracer: Tracer, Service {
    /// The most spans, and the most events, waiting to be sent.
    public static let maximumPending = 10_000

    /// The key, application, labels, account and endpoint.
    public let settings: NewRelicMonitoring
    private let spans = SpanBuffer<NewRelicSpanRecord>(limit: NewRelicTracer.maximumPending)
    private let errors = SpanBuffer<[String: NewRelicValue]>(limit: NewRelicTracer.maximumPending)
    private let log: DropLog
    /// What the collector answered, once it has.
    private let reply = Locked<NewRelicConnectReply?>(nil)
    /// The delays between two connect attempts.
    private let connectDelays: [Duration]
    /// The variables the connect reads `NEW_RELIC_METADATA_*` from.
    private let environment: [String: String]

    /// A tracer sending to New Relic as `settings` say.
    public convenience init(_ settings: NewRelicMonitoring, logger: Logger) {
        self.init(
            settings, logger: logger, connectDelays: NewRelicCollector.retryDelays,
            environment: ProcessInfo.processInfo.environment)
    }

    /// A tracer waiting `connectDelays` between two connect attempts.
    init(
        _ settings: NewRelicMonitoring, logger: Logger, connectDelays: [Duration], environment: [String: String]
    ) {
        self.settings = settings
        log = DropLog(logger: logger)
        self.connectDelays = connectDelays
        self.environment = environment
    }

    /// The account the headers and error events name: the setting's, else the collector's once it answered.
    var account: NewRelicAccount? {
        NewRelicAccount(configured: settings.accountID, reply: reply.withLock { $0 })
    }

    /// Keeps what the collector answered.
    func connected(_ reply: NewRelicConnectReply) { self.reply.withLock { $0 = reply } }

    /// Starts a span: a segment of the context's transaction, else, for a server span (a request), the entry span of
    /// a new transaction (in the caller's trace when the context carries one). Work outside any request (the start's
    /// fetch of the watermark or fallback image) is not sent: as with imgproxy's agent, only requests are
    /// transactions.
    public func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> ServiceContext, ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> RecordingSpan {
        var context = context()
        let parent = context.newRelicSpan
        guard parent?.transaction != nil || kind == .server else {
            return RecordingSpan(
                name: operationName, context: context, kind: kind, start: instant().nanosecondsSinceEpoch
            ) { _ in }
        }
        let isEntry = parent?.transaction == nil
        let transaction = parent?.transaction ?? NewRelicTransaction(id: Self.newID(digits: 16))
        let sampled = parent?.sampled ?? true
        let ids = NewRelicSpanContext(
            traceID: parent?.traceID ?? Self.newID(digits: 32), spanID: Self.newID(digits: 16),
            transaction: transaction, sampled: sampled,
            priority: parent?.priority ?? NewRelicTraceHeaders.randomPriority(sampled: sampled),
            otherVendors: parent?.otherVendors ?? [])
        context.newRelicSpan = ids
        let parentID = parent?.spanID
        return RecordingSpan(
            name: operationName, context: context, kind: kind, start: instant().nanosecondsSinceEpoch
        ) { [weak self] span in self?.finished(span, ids: ids, parentID: parentID, isEntry: isEntry) }
    }

    /// Nothing: spans are sent every second by ``run()``.
    public func forceFlush() {}

    /// Reads a caller's trace from `traceparent` and `tracestate` (New Relic's entry of the trusted account, once
    /// known), else from `newrelic`.
    public func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract
    ) where Extract.Carrier == Carrier {
        guard
            let caller = NewRelicTraceHeaders.read(
                traceparent: extractor.extract(key: "traceparent", from: carrier),
                tracestate: extractor.extract(key: "tracestate", from: carrier),
                newrelic: extractor.extract(key: "newrelic", from: carrier), trustedKey: account?.trustedKey)
        else { return }
        context.newRelicSpan = caller
    }

    /// Writes the current span's `traceparent`, `tracestate` and (with an account) `newrelic` headers.
    public func inject<Carrier, Inject: Injector>(
        _ context: ServiceContext, into carrier: inout Carrier, using injector: Inject
    ) where Inject.Carrier == Carrier {
        guard let span = context.newRelicSpan else { return }
        for (name, value) in NewRelicTraceHeaders.write(span, account: account, now: Date()) {
            injector.inject(value, forKey: name, into: &carrier)
        }
    }

    /// Connects to the collector in the background and sends the spans and events every second until the service
    /// group shuts down, then once more.
    public func run() async throws {
        let sender = NewRelicSender(settings: settings, log: log)
        let collector = NewRelicCollector(
            settings: settings, client: sender.client, logger: log.logger, environment: environment)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [connectDelays] in
                await collector.connect(retryingAfter: connectDelays) { [weak self] in self?.connected($0) }
            }
            await spans.run { [errors, weak self] batch in
                await sender.send(batch)
                await sender.send(events: errors.drain(), account: self?.account?.id)
            }
            group.cancelAll()
        }
        await sender.shutdown()
    }

    /// The spans waiting, taken out.
    func drain() -> [NewRelicSpanRecord] { spans.drain() }

    /// The error events waiting, taken out.
    func drainErrors() -> [[String: NewRelicValue]] { errors.drain() }

    /// Keeps the record of `span` to be sent; a transaction's entry span also keeps its error event.
    private func finished(_ span: FinishedSpan, ids: NewRelicSpanContext, parentID: String?, isEntry: Bool) {
        guard let transaction = ids.transaction else { return }
        transaction.add(span)
        let told = transaction.snapshot
        let record = NewRelicNames.record(span, ids: ids, parentID: parentID, isEntry: isEntry, told: told)
        var kept = spans.append(record)
        let own = span.error.flatMap { $0.isCancellation ? nil : $0 }
        if isEntry, let error = told.error ?? own, account != nil {
            kept = errors.append(NewRelicNames.errorEvent(error, entry: record, appName: settings.appName)) && kept
        }
        if !kept { log.dropped("New Relic \(settings.tracesURL)", NewRelicSender.Full()) }
    }

    /// A random id of `digits` lower-case hex digits, not all zeros.
    private static func newID(digits: Int) -> String {
        var id = ""
        while id.count < digits {
            let word = String(UInt64.random(in: 1...UInt64.max), radix: 16)
            id += String(repeating: "0", count: 16 - word.count) + word
        }
        return String(id.prefix(digits))
    }
}
