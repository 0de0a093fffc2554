import ServiceLifecycle
import WebImage

/// The records of finished spans waiting to be sent by a tracer (``DatadogTracer``, ``NewRelicTracer``): at most
/// ``limit``, beyond which a record is refused (the caller logs it); taken out every second by ``run(send:)``, which
/// ends with one more send on graceful shutdown.
struct SpanBuffer<Record: Sendable>: Sendable {
    /// The most records waiting.
    let limit: Int
    private let pending = Locked<[Record]>([])

    init(limit: Int) { self.limit = limit }

    /// Keeps `record`; `false` when ``limit`` records already wait.
    func append(_ record: Record) -> Bool {
        pending.withLock { pending in
            guard pending.count < limit else { return false }
            pending.append(record)
            return true
        }
    }

    /// The records waiting, taken out.
    func drain() -> [Record] {
        pending.withLock { pending in
            defer { pending = [] }
            return pending
        }
    }

    /// Hands what waits to `send` every second until the service group shuts down, then once more.
    func run(send: @escaping @Sendable ([Record]) async -> Void) async {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do { try await Task.sleep(for: .seconds(1)) } catch { break }
                await send(self.drain())
            }
        }
        await send(drain())
    }
}
