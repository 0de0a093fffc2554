import Foundation
import Testing
import WebImageTesting

@testable import WebImage

@Suite("Loading: download queue")
struct LoadingQueueTests {
    /// Starts a gated blocker that holds the only slot, then enqueues `paths` one by one (each confirmed waiting),
    /// releases the blocker and returns the order in which the server saw the paths.
    private func startOrder(
        order: ImageDownloadOrder, _ requests: [(path: String, priority: ImageLoadPriority)],
        whileWaiting: ([ImageLoadPriorityHandle]) -> Void = { _ in }
    ) async throws -> [String] {
        try await withServer(.init(maxConcurrentDownloads: 1, order: order)) { server, loader in
            let blocker = Task { try await loader.load(server.url("/generated/blocker?gate=open")) }
            await server.waitForRequests("/generated/blocker")
            var tasks: [Task<ImageResponse, any Error>] = []
            var handles: [ImageLoadPriorityHandle] = []
            for (index, request) in requests.enumerated() {
                let handle = ImageLoadPriorityHandle(request.priority)
                handles.append(handle)
                let url = server.url(request.path)
                tasks.append(Task { try await loader.load(ImageLoadRequest(url: url, priorityHandle: handle)) })
                await loader.waitUntil { $0.waiting == index + 1 }
            }
            whileWaiting(handles)
            server.openGate("open")
            _ = try await blocker.value
            for task in tasks { _ = try await task.value }
            #expect(server.stats.maxInFlight == 1)
            return server.stats.log.filter { $0 != "/generated/blocker" }
        }
    }

    @Test func fifoStartsTheOldestFirst() async throws {
        let log = try await startOrder(
            order: .fifo, [("/generated/a", .normal), ("/generated/b", .normal), ("/generated/c", .normal)])
        #expect(log == ["/generated/a", "/generated/b", "/generated/c"])
    }

    @Test func lifoStartsTheNewestFirst() async throws {
        let log = try await startOrder(
            order: .lifo, [("/generated/a", .normal), ("/generated/b", .normal), ("/generated/c", .normal)])
        #expect(log == ["/generated/c", "/generated/b", "/generated/a"])
    }

    @Test func higherPriorityStartsFirst() async throws {
        let log = try await startOrder(
            order: .fifo,
            [
                ("/generated/low", .low), ("/generated/n1", .normal), ("/generated/high", .high),
                ("/generated/n2", .normal),
            ])
        #expect(log == ["/generated/high", "/generated/n1", "/generated/n2", "/generated/low"])
    }

    @Test func priorityChangesWhileWaiting() async throws {
        let log = try await startOrder(
            order: .fifo, [("/generated/a", .normal), ("/generated/b", .normal), ("/generated/c", .normal)]
        ) { handles in
            handles[2].setPriority(.high)
            handles[0].setPriority(.low)
        }
        #expect(log == ["/generated/c", "/generated/b", "/generated/a"])
    }

    @Test(arguments: [1, 3, 6])
    func concurrencyLimitIsNeverExceeded(limit: Int) async throws {
        try await withServer(.init(maxConcurrentDownloads: limit)) { server, loader in
            let count = 4 * limit + 2
            let tasks = (0..<count).map { index in
                let url = server.url("/generated/img\(index)?gate=go&chunk=4000&drip=1")
                return Task { try await loader.load(url) }
            }
            await server.waitUntil { $0.inFlight == limit }
            await loader.waitUntil { $0.waiting == count - limit && $0.running == limit }
            server.openGate("go")
            for task in tasks {
                let data = try await task.value.data
                #expect(data.count == 100_000)
            }
            #expect(server.stats.total == count)
            #expect(server.stats.maxInFlight == limit)
            #expect(loader.statistics == .init(waiting: 0, running: 0, downloads: 0))
        }
    }

    @Test func cancellingAWaitingDownloadRemovesIt() async throws {
        try await withServer(.init(maxConcurrentDownloads: 1)) { server, loader in
            let blocker = Task { try await loader.load(server.url("/generated/blocker?gate=open")) }
            await server.waitForRequests("/generated/blocker")
            let waiting = Task { try await loader.load(server.url("/generated/w")) }
            await loader.waitUntil { $0.waiting == 1 }
            waiting.cancel()
            let result = await outcome(waiting)
            #expect(result.errorCode == .cancelled)
            await loader.waitUntil { $0.waiting == 0 && $0.downloads == 1 }
            server.openGate("open")
            _ = try await blocker.value
            #expect(server.requestCount("/generated/w") == 0)
        }
    }
}

extension Result where Failure == WebImageError {
    /// The error's code, or `nil` on success.
    var errorCode: WebImageError.Code? {
        if case .failure(let error) = self { error.code } else { nil }
    }
}
