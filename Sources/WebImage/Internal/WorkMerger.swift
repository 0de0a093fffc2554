/// Merges identical work in flight: callers asking for the same key share one ``SharedWork``.
///
/// The manager keys its runs by ``ImageManager/RunKey`` and the HTTP loader its downloads by `DownloadKey`.
final class WorkMerger<Key: Hashable & Sendable, Value: Sendable, Event: Sendable>: Sendable {
    /// Makes the body of new work for `key`; called once per work, by its first subscriber right after joining.
    typealias Start = @Sendable (Key, SharedWork<Value, Event>) -> @Sendable () async -> Result<Value, WebImageError>

    private let works = Locked<[Key: SharedWork<Value, Event>]>([:])
    private let onChange: @Sendable () -> Void

    /// A merger calling `onChange` whenever work or subscribers come or go.
    init(onChange: @escaping @Sendable () -> Void = {}) { self.onChange = onChange }

    /// Work in flight.
    var count: Int { works.withLock { $0.count } }

    /// Subscribers of the work whose key satisfies `predicate`.
    func subscriberCount(where predicate: (Key) -> Bool = { _ in true }) -> Int {
        works.withLock { $0.filter { predicate($0.key) }.map(\.value) }.map(\.subscriberCount).reduce(0, +)
    }

    /// Joins (or starts) the work for `key` as `subscriber` and waits for its value.
    ///
    /// - Throws: the work's error, or ``WebImageError/Code/cancelled`` when the calling task is cancelled or
    ///   `subscriber` is (before or after joining).
    func value(
        for key: Key, subscriber: WorkSubscriber<Event>, start: Start
    ) async throws(WebImageError) -> Value {
        while true {
            let work = work(for: key)
            do {
                return try await withTaskCancellationHandler {
                    try await withCheckedThrowingContinuation { continuation in
                        switch work.join(subscriber, continuation: continuation) {
                        case .first: work.start(start(key, work))
                        case .joined: break
                        case .finished: continuation.resume(throwing: WorkEnded())
                        case .cancelled:
                            continuation.resume(throwing: WebImageError(.cancelled, "the request was cancelled"))
                        }
                    }
                } onCancel: {
                    subscriber.cancel()
                }
            } catch is WorkEnded {
                continue
            } catch let error as WebImageError {
                throw error
            } catch {
                throw WebImageError(.cancelled, "the request was cancelled", underlying: error)
            }
        }
    }

    private func work(for key: Key) -> SharedWork<Value, Event> {
        works.withLock { works in
            if let work = works[key] { return work }
            let work = SharedWork<Value, Event>(onEnd: { [weak self] in self?.remove(key) }, onChange: onChange)
            works[key] = work
            return work
        }
    }

    /// Forgets the work for `key` once it ended; later callers start new work.
    private func remove(_ key: Key) {
        works.withLock { works in
            if let work = works[key], work.hasEnded { works[key] = nil }
        }
        onChange()
    }
}

/// The work ended between being found and being joined; the caller joins new work.
private struct WorkEnded: Error {}
