import Foundation
import Synchronization
import Testing
import WebImageTesting

@testable import WebImage

@Suite("Loading: coalescing")
struct LoadingCoalescingTests {
    @Test func identicalConcurrentLoadsAreOneRequest() async throws {
        try await withServer { server, loader in
            let url = server.url("/generated/same?gate=go&chunk=10000")
            let recorders = (0..<100).map { _ in ProgressRecorder() }
            let tasks = recorders.map { recorder in
                Task { try await loader.load(ImageLoadRequest(url: url), progress: recorder.handler, partialData: nil) }
            }
            await loader.waitUntil(subscribers: 100, for: url)
            #expect(loader.statistics.downloads == 1)
            server.openGate("go")
            for task in tasks {
                let data = try await task.value.data
                #expect(data.count == 100_000)
            }
            #expect(server.requestCount("/generated/same") == 1)
            for recorder in recorders { #expect(recorder.calls.withLock { $0.last?.received } == 100_000) }
        }
    }

    @Test func differentHeadersAreDifferentDownloads() async throws {
        try await withServer { server, loader in
            let url = server.url("/generated/h?gate=go")
            var options = ImageLoaderOptions()
            options.requestModifier = .headers(["X-Variant": "2"])
            let plain = Task { try await loader.load(url) }
            let variant = Task { [options] in try await loader.load(url, options: options) }
            await server.waitForRequests("/generated/h", count: 2)
            server.openGate("go")
            _ = try await (plain.value, variant.value)
            #expect(server.requestCount("/generated/h") == 2)
        }
    }

    @Test func sequentialLoadsAreNotCoalesced() async throws {
        try await withServer { server, loader in
            _ = try await loader.load(server.url("/generated/seq"))
            _ = try await loader.load(server.url("/generated/seq"))
            #expect(server.requestCount("/generated/seq") == 2)
        }
    }

    @Test func oneCallerCancellingLeavesTheOthersRunning() async throws {
        try await withServer { server, loader in
            let url = server.url("/generated/shared?gate=go")
            let tasks = (0..<3).map { _ in Task { try await loader.load(url) } }
            await loader.waitUntil(subscribers: 3, for: url)
            tasks[0].cancel()
            #expect(await outcome(tasks[0]).errorCode == .cancelled)
            #expect(loader.statistics.downloads == 1)
            server.openGate("go")
            let second = try await tasks[1].value, third = try await tasks[2].value
            #expect(second.data.count == 100_000 && third.data.count == 100_000)
            #expect(server.requestCount("/generated/shared") == 1)
            #expect(server.stats.aborted.isEmpty)
        }
    }

    @Test func theLastCallerCancellingStopsTheDownloadAndClosesTheConnection() async throws {
        try await withServer { server, loader in
            let url = server.url("/huge/50000000?drip=20&chunk=1000")
            let recorders = [ProgressRecorder(), ProgressRecorder()]
            let tasks = recorders.map { recorder in
                Task { try await loader.load(ImageLoadRequest(url: url), progress: recorder.handler, partialData: nil) }
            }
            for recorder in recorders { await recorder.waitForBytes() }
            tasks[0].cancel()
            #expect(await outcome(tasks[0]).errorCode == .cancelled)
            #expect(server.stats.aborted.isEmpty)
            tasks[1].cancel()
            #expect(await outcome(tasks[1]).errorCode == .cancelled)
            await server.waitUntil { $0.aborted["/huge/50000000"] == 1 && $0.inFlight == 0 }
            await loader.waitUntil { $0 == .init(waiting: 0, running: 0, downloads: 0) }
            #expect(server.requestCount("/huge/50000000") == 1)
        }
    }

    @Test func aCallerJoiningAfterCompletionStartsANewDownload() async throws {
        try await withServer { server, loader in
            let url = server.url("/generated/again?gate=go")
            let first = Task { try await loader.load(url) }
            await loader.waitUntil(subscribers: 1, for: url)
            first.cancel()
            #expect(await outcome(first).errorCode == .cancelled)
            server.openGate("go")
            let response = try await loader.load(url)
            #expect(response.data.count == 100_000)
        }
    }

    @Test func coalescedDownloadTakesTheHighestPriority() async throws {
        try await withServer(.init(maxConcurrentDownloads: 1)) { server, loader in
            let blocker = Task { try await loader.load(server.url("/generated/blocker?gate=open")) }
            await server.waitForRequests("/generated/blocker")
            let normal = Task { try await loader.load(ImageLoadRequest(url: server.url("/generated/n"))) }
            await loader.waitUntil { $0.waiting == 1 }
            let lowURL = server.url("/generated/l")
            let low = Task { try await loader.load(ImageLoadRequest(url: lowURL, priority: .low)) }
            await loader.waitUntil { $0.waiting == 2 }
            let lowAsHigh = Task { try await loader.load(ImageLoadRequest(url: lowURL, priority: .high)) }
            await loader.waitUntil(subscribers: 2, for: lowURL)
            server.openGate("open")
            _ = try await (blocker.value, normal.value, low.value, lowAsHigh.value)
            #expect(server.stats.log == ["/generated/blocker", "/generated/l", "/generated/n"])
        }
    }
}
