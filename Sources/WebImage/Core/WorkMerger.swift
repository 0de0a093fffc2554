/// Merges identical work in flight: callers asking for the same key share one ``SharedWork``.
///
/// The package's one merging primitive: the manager keys its runs by ``ImageManager/RunKey``, the HTTP loader its
/// downloads by `DownloadKey`, the server its results by their typed key. Generic over the error the work throws.
package final class WorkMerger<Key: Hashable & Sendable, Value: Sendable, Event: Sendable, Failure: WorkFailure>:
    Sendable
{
    /// Makes the body of new work for `key`; called once per work, by its first subscriber right after joining.
    package typealias Start =
        @Sendable (Key, SharedWork<Value, Event, Failure>) ->
        @Sendable () async -> Result<
            Value, Failure
        >

    private let works = Locked<[Key: SharedWork<Value, Event, Failure>]>([:])
    private let onChange: @Sendable () -> Void

    /// A merger calling `onChange` whenever work or subscribers come or go.
    package init(onChange: @escaping @Sendable () -> Void = {}) { self.onChange = onChange }

    /// Work in flight.
    package var count: Int { works.withLock { $0.count } }

    /// Subscribers of the work whose key satisfies `predicate`.
    package func subscriberCount(where predicate: (Key) -> Bool = { _ in true }) -> Int {
        works.withLock { $0.filter { predicate($0.key) }.map(\.value) }.map(\.subscriberCount).reduce(0, +)
    }

    /// Joins (or starts) the work for `key` as `subscriber` and waits for its value.
    ///
    /// - Throws: the work's error, or ``WorkFailure/cancelled`` when the calling task is cancelled or `subscriber`
    ///   is (before or after joining).
    package func value(
        for key: Key, subscriber: WorkSubscriber<Event>, start: Start
    ) async throws(Failure) -> Value {
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
                            continuation.resume(throwing: Failure.cancelled)
                        }
                    }
                } onCancel: {
                    subscriber.cancel()
                }
            } catch is WorkEnded {
                continue
            } catch let error as Failure {
                throw error
            } catch {
                throw Failure.cancelled
            }
        }
    }

    private func work(for key: Key) -> SharedWork<Value, Event, Failure> {
        works.withLock { works in
            if let work = works[key] { return work }
            let work = SharedWork<Value, Event, Failure>(
                onEnd: { [weak self] in self?.remove(key) }, onChange: onChange)
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

/// An error that shared work can end with, including the one a subscriber gets when it leaves or is cancelled.
package protocol WorkFailure: Error {
    /// The error of a caller that was cancelled or left the work.
    static var cancelled: Self { get }
}

extension WebImageError: WorkFailure {
    package static var cancelled: WebImageError { WebImageError(.cancelled, "the request was cancelled") }
}

extension WorkMerger where Event == Never {
    /// Joins (or starts) the work for `key` at normal priority, the work being `make(key)` (its error the work's
    /// failure): ``value(for:subscriber:start:)`` for work that sends no events.
    package func value(
        for key: Key, _ make: @escaping @Sendable (Key) async throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        try await value(for: key, subscriber: WorkSubscriber(priority: .normal)) { key, _ in
            { () async -> Result<Value, Failure> in
                do throws(Failure) { return .success(try await make(key)) } catch { return .failure(error) }
            }
        }
    }
}
