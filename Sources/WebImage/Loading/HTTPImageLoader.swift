import AsyncHTTPClient
import Foundation
import Instrumentation
import NIOCore

/// Loads `http` and `https` URLs with AsyncHTTPClient, through a download queue that coalesces identical requests.
///
/// One `HTTPClient` (and its connection pool) serves every download of a loader; call ``shutdown()`` once when done.
/// The queue admits ``Configuration/maxConcurrentDownloads`` at a time, by priority then FIFO or LIFO order.
/// Concurrent loads of the same request are one download: each caller gets its own progress and result, a caller
/// that is cancelled leaves the others running, and the last one out cancels the download and closes its connection.
/// Redirects are followed by the loader, hop by hop; ``Configuration/addressPolicy`` checks each hop's address where
/// its connection is made (see ``SourceAddressPolicy``).
///
/// ```swift
/// let loader = HTTPImageLoader()
/// let response = try await loader.load(URL(string: "https://example.com/cat.jpg")!)
/// try await loader.shutdown()
/// ```
public final class HTTPImageLoader: ImageLoading {
    /// Settings of a loader.
    public struct Configuration: Sendable {
        /// Downloads running at once; default 6.
        public var maxConcurrentDownloads = 6
        /// The order of waiting downloads of equal priority; default FIFO.
        public var order: ImageDownloadOrder = .fifo
        /// How long opening a connection may take; default 10 s.
        public var connectTimeout: Duration = .seconds(10)
        /// Which addresses connections may go to, checked at every connection and redirect hop; default
        /// ``SourceAddressPolicy/unrestricted`` (no check, no extra resolution). A refused address fails the load
        /// with ``WebImageError/Code/forbiddenSource`` before any connection to it is started.
        public var addressPolicy: SourceAddressPolicy = .unrestricted
        /// Write the current task's trace context (W3C `traceparent`, or whatever the bootstrapped instrument
        /// propagates) into each request, so the origin can join the trace; default on. Nothing is written without
        /// a bootstrapped instrument.
        public var propagatesTraceContext = true
        /// The instrument that writes the trace context with ``propagatesTraceContext``; `nil` (the default): the
        /// bootstrapped one. The server gives the tracers whose headers its origins may get.
        package var traceInstrument: (any Instrument)?
        /// How long an idle connection is kept for the next download from its host; default 60 s. Zero (or less)
        /// closes each connection after its download.
        public var idleConnectionTimeout: Duration = .seconds(60)

        /// The defaults.
        public init() {}

        /// Settings with the given concurrency and order.
        public init(maxConcurrentDownloads: Int, order: ImageDownloadOrder = .fifo) {
            self.maxConcurrentDownloads = maxConcurrentDownloads
            self.order = order
        }
    }

    /// A snapshot of the queue, for monitoring and tests.
    public struct Statistics: Sendable, Hashable {
        /// Downloads waiting for a slot.
        public var waiting: Int
        /// Downloads running.
        public var running: Int
        /// Distinct downloads in progress, waiting or running (coalesced loads count once).
        public var downloads: Int

        /// Creates a snapshot.
        public init(waiting: Int, running: Int, downloads: Int) {
            self.waiting = waiting
            self.running = running
            self.downloads = downloads
        }
    }

    /// The settings this loader was created with.
    public let configuration: Configuration
    let client: HTTPClient
    /// The client for ``ImageLoaderOptions/allowsInvalidCertificates``, made on first use; and whether
    /// ``shutdown()`` has run.
    private let clients: Locked<(insecure: HTTPClient?, isShutDown: Bool)>
    /// Admits the downloads: the package's admission queue, unbounded, by priority then FIFO or LIFO.
    private let queue: AdmissionQueue
    /// Identical downloads in flight, merged.
    private let downloads: WorkMerger<DownloadKey, ImageResponse, DownloadEvent, WebImageError>
    let changed = ChangeSignal()
    /// Resolves host names for ``Configuration/addressPolicy``.
    let resolver: HostResolver
    /// The clients pinned to checked addresses, for ``Configuration/addressPolicy``.
    let pinnedClients: PinnedClients

    /// Creates a loader with its own `HTTPClient` on the shared NIO event loop group.
    public convenience init(configuration: Configuration = Configuration()) {
        self.init(configuration: configuration, resolver: .system)
    }

    /// Creates a loader that resolves host names with `resolver`; tests use it to stay off DNS.
    init(configuration: Configuration, resolver: HostResolver) {
        self.configuration = configuration
        self.resolver = resolver
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: Self.clientConfiguration(configuration))
        pinnedClients = PinnedClients { allowsInvalidCertificates in
            Self.clientConfiguration(configuration, allowsInvalidCertificates: allowsInvalidCertificates)
        }
        clients = Locked((nil, false))
        queue = AdmissionQueue(width: configuration.maxConcurrentDownloads, order: configuration.order) {
            [changed] _ in changed.notify()
        }
        downloads = WorkMerger { [changed] in changed.notify() }
    }

    /// The queue now.
    public var statistics: Statistics {
        Statistics(waiting: queue.waitingCount, running: queue.runningCount, downloads: downloads.count)
    }

    /// Callers now waiting for a download of `url`, for tests.
    func subscriberCount(for url: URL) -> Int { downloads.subscriberCount { $0.request.url == url } }

    /// Returns once `condition` holds for ``statistics``; for tests that need to know the queue's state.
    func waitUntil(_ condition: @escaping (Statistics) -> Bool) async {
        await changed.wait { condition(statistics) }
    }

    /// Returns once `count` callers wait for a download of `url`; for tests.
    func waitUntil(subscribers count: Int, for url: URL) async {
        await changed.wait { subscriberCount(for: url) >= count }
    }

    public func canLoad(_ url: URL) -> Bool { Self.canLoadScheme(of: url) }

    /// Whether `url` is `http` or `https`, without making a loader.
    public static func canLoadScheme(of url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased() else { return false }
        return scheme == "http" || scheme == "https"
    }

    public func load(
        _ request: ImageLoadRequest, progress: ImageLoadProgressHandler?, partialData: ImagePartialDataHandler?
    ) async throws(WebImageError) -> ImageResponse {
        let url = request.url
        guard canLoad(url), url.host?.isEmpty == false else {
            throw WebImageError(.invalidSource, "not an http(s) URL", url: url)
        }
        let options = request.options
        var httpRequest = options.baseRequest(for: url)
        try options.requestModifier.modify(&httpRequest)
        let key = DownloadKey(
            request: httpRequest, timeout: options.timeout, maxBodySize: options.maxBodySize,
            redirectLimit: options.redirectLimit, allowsInvalidCertificates: options.allowsInvalidCertificates)

        let subscriber = WorkSubscriber<DownloadEvent>(
            priority: request.currentPriority, wantsDetail: partialData != nil
        ) { event in
            progress?(event.received, event.expected)
            if let data = event.data { partialData?(data) }
        }
        let handle = request.priorityHandle
        let token = handle?.addObserver { priority in subscriber.setPriority(priority) }
        defer { if let handle, let token { handle.removeObserver(token) } }
        if let handle { subscriber.setPriority(handle.priority) }

        let response: ImageResponse
        do {
            response = try await downloads.value(for: key, subscriber: subscriber) { [self] key, download in
                let ticket = queue.enqueue(priority: download.priority)
                if case .success(let ticket) = ticket {
                    download.observePriority { [queue] priority in queue.setPriority(priority, for: ticket) }
                }
                return { await self.runDownload(ticket: ticket, key: key, download: download) }
            }
        } catch {
            throw Self.map(error, url: url)
        }
        return try options.finish(response)
    }

    /// Shuts the HTTP client(s) down; loads still running fail, later loads fail at once. Idempotent.
    ///
    /// Call it when done with the loader; a loader released without it shuts its clients down in the background.
    public func shutdown() async throws {
        let insecure = clients.withLock { clients -> HTTPClient?? in
            guard !clients.isShutDown else { return .none }
            clients.isShutDown = true
            return .some(clients.insecure)
        }
        guard let insecure else { return }
        try await client.shutdown()
        try await insecure?.shutdown()
        try await pinnedClients.shutdown()
    }

    deinit {
        let (insecure, isShutDown) = clients.withLock { ($0.insecure, $0.isShutDown) }
        guard !isShutDown else { return }
        client.shutdown { _ in }
        insecure?.shutdown { _ in }
        pinnedClients.shutdownInBackground()
    }

    /// The body of a download: waits for a slot and transfers; the result goes to every caller.
    private func runDownload(
        ticket: Result<AdmissionQueue.Ticket, AdmissionQueue.Refusal>, key: DownloadKey,
        download: SharedWork<ImageResponse, DownloadEvent, WebImageError>
    ) async -> Result<ImageResponse, WebImageError> {
        let result: Result<ImageResponse, WebImageError>
        do {
            if let refused = await queue.wait(try ticket.get()) { throw refused }
            result = .success(
                try await transfer(key, client: client(for: key)) { received, expected, data in
                    download.send(
                        DownloadEvent(received: received, expected: expected, data: download.wantsDetail ? data() : nil)
                    )
                })
        } catch {
            result = .failure(Self.map(error, url: key.request.url))
        }
        // The slot is free before anyone hears of the result: a caller that sees its response never sees its
        // download still counted as running, and the next download starts at once.
        if case .success(let ticket) = ticket { queue.finish(ticket) }
        return result
    }

    private func client(for key: DownloadKey) -> HTTPClient {
        guard key.allowsInvalidCertificates else { return client }
        return clients.withLock { clients in
            if let insecure = clients.insecure { return insecure }
            let configuration = Self.clientConfiguration(self.configuration, allowsInvalidCertificates: true)
            let created = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            if clients.isShutDown {
                created.shutdown { _ in }  // loads fail with alreadyShutdown, as on the main client
            } else {
                clients.insecure = created
            }
            return created
        }
    }

    /// The settings of every `HTTPClient` of a loader; the loader follows redirects itself.
    private static func clientConfiguration(
        _ configuration: Configuration, allowsInvalidCertificates: Bool = false
    ) -> HTTPClient.Configuration {
        var client = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: TimeAmount(configuration.connectTimeout)),
            connectionPool: .init(
                idleTimeout: TimeAmount(max(configuration.idleConnectionTimeout, .milliseconds(1))),
                concurrentHTTP1ConnectionsPerHostSoftLimit: max(8, configuration.maxConcurrentDownloads)))
        if configuration.idleConnectionTimeout <= .zero { client.maximumUsesPerConnection = 1 }
        if allowsInvalidCertificates {
            client.tlsConfiguration = HTTPClient.Configuration(certificateVerification: .none).tlsConfiguration
        }
        return client.withoutClientSpans()
    }
}
