import Foundation

/// What makes two HTTP downloads the same: the request as sent and the settings that change the transfer.
struct DownloadKey: Hashable, Sendable {
    var request: ImageHTTPRequest
    var timeout: Duration
    var maxBodySize: Int
    var redirectLimit: Int
    var allowsInvalidCertificates: Bool
}

/// Turns identical concurrent loads into one download, each caller keeping its own progress and result.
///
/// Callers subscribe to a download by key; the first creates it. A caller that is cancelled leaves; the last one
/// out cancels the download. A download's queue priority is the highest of its callers'.
final class DownloadCoalescer: Sendable {
    /// Runs a download given its id, queue ticket and key; it must end by calling ``complete(_:id:with:)``.
    typealias Runner = @Sendable (_ id: Int, _ ticket: DownloadQueue.Ticket, _ key: DownloadKey) async -> Void

    private struct Subscriber {
        var priority: ImageLoadPriority
        var progress: ImageLoadProgressHandler?
        var partialData: ImagePartialDataHandler?
        var continuation: CheckedContinuation<ImageResponse, any Error>
    }

    private struct Download {
        let id: Int
        let ticket: DownloadQueue.Ticket
        var subscribers: [Int: Subscriber] = [:]
        var task: Task<Void, Never>?
        var priority: ImageLoadPriority { subscribers.values.map(\.priority).max() ?? .low }
    }

    private struct State {
        var downloads: [DownloadKey: Download] = [:]
        var keyOfSubscriber: [Int: DownloadKey] = [:]
        var nextID = 0
    }

    private let state = Locked(State())
    private let queue: DownloadQueue
    private let changed: ChangeSignal

    init(queue: DownloadQueue, changed: ChangeSignal) {
        self.queue = queue
        self.changed = changed
    }

    /// A fresh subscriber id.
    func makeSubscriberID() -> Int {
        state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
    }

    /// Downloads in progress (waiting or running).
    var downloadCount: Int { state.withLock { $0.downloads.count } }

    /// Callers waiting on the download of `url`.
    func subscriberCount(for url: URL) -> Int {
        state.withLock { $0.downloads.filter { $0.key.request.url == url }.map(\.value.subscribers.count).reduce(0, +) }
    }

    /// Joins (or starts) the download of `key` and waits for its response.
    func subscribe(
        id: Int, key: DownloadKey, priority: @autoclosure @Sendable () -> ImageLoadPriority,
        progress: ImageLoadProgressHandler?, partialData: ImagePartialDataHandler?, run: @escaping Runner
    ) async throws -> ImageResponse {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ImageResponse, any Error>) in
                let joined: Bool = state.withLock { state in
                    if Task.isCancelled { return false }
                    let subscriber = Subscriber(
                        priority: priority(), progress: progress, partialData: partialData, continuation: continuation)
                    state.keyOfSubscriber[id] = key
                    if var download = state.downloads[key] {
                        download.subscribers[id] = subscriber
                        state.downloads[key] = download
                        queue.setPriority(download.priority, for: download.ticket)
                    } else {
                        let downloadID = state.nextID
                        state.nextID += 1
                        let ticket = queue.enqueue(priority: subscriber.priority)
                        var download = Download(id: downloadID, ticket: ticket)
                        download.subscribers[id] = subscriber
                        download.task = Task { await run(downloadID, ticket, key) }
                        state.downloads[key] = download
                    }
                    return true
                }
                if joined { changed.notify() } else { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            leave(id)
        }
    }

    /// Changes the priority of subscriber `id`, and so perhaps of its download.
    func setPriority(_ priority: ImageLoadPriority, subscriber id: Int) {
        state.withLock { state in
            guard let key = state.keyOfSubscriber[id], var download = state.downloads[key],
                download.subscribers[id] != nil
            else { return }
            download.subscribers[id]?.priority = priority
            state.downloads[key] = download
            queue.setPriority(download.priority, for: download.ticket)
        }
    }

    /// Removes subscriber `id` (it gets `CancellationError`); cancels the download if nobody else waits for it.
    func leave(_ id: Int) {
        let (subscriber, task) = state.withLock { state -> (Subscriber?, Task<Void, Never>?) in
            guard let key = state.keyOfSubscriber.removeValue(forKey: id), var download = state.downloads[key],
                let subscriber = download.subscribers.removeValue(forKey: id)
            else { return (nil, nil) }
            if download.subscribers.isEmpty {
                state.downloads[key] = nil
                return (subscriber, download.task)
            }
            state.downloads[key] = download
            queue.setPriority(download.priority, for: download.ticket)
            return (subscriber, nil)
        }
        task?.cancel()
        subscriber?.continuation.resume(throwing: CancellationError())
        changed.notify()
    }

    /// Reports progress of download `id` to each of its callers.
    /// `data` is called only if a caller wants partial data.
    func progress(_ key: DownloadKey, id: Int, received: Int, expected: Int?, data: () -> Data) {
        let handlers = state.withLock { state -> [Subscriber] in
            guard let download = state.downloads[key], download.id == id else { return [] }
            return Array(download.subscribers.values)
        }
        var partial: Data?
        for handler in handlers {
            handler.progress?(received, expected)
            if let partialData = handler.partialData {
                if partial == nil { partial = data() }
                partialData(partial!)
            }
        }
    }

    /// Ends download `id`, handing `result` to each remaining caller.
    func complete(_ key: DownloadKey, id: Int, with result: Result<ImageResponse, WebImageError>) {
        let subscribers = state.withLock { state -> [Int: Subscriber] in
            guard let download = state.downloads[key], download.id == id else { return [:] }
            state.downloads[key] = nil
            for subscriberID in download.subscribers.keys { state.keyOfSubscriber[subscriberID] = nil }
            return download.subscribers
        }
        for subscriber in subscribers.values { subscriber.continuation.resume(with: result.mapError { $0 }) }
        changed.notify()
    }
}
