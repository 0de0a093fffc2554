import Foundation
import Testing
import WebImageTesting

@testable import WebImage

@Suite("Loading: HTTP faults")
struct LoadingHTTPFaultTests {
    @Test func contentLengthOverTheLimitIsRefusedBeforeReading() async throws {
        try await withServer { server, loader in
            let recorder = ProgressRecorder()
            let error = await expectError(.bodyTooLarge) { () async throws(WebImageError) in
                try await loader.load(
                    ImageLoadRequest(url: server.url("/huge/60000000")), progress: recorder.handler, partialData: nil)
            }
            #expect(error?.isTransient == false)
            #expect(recorder.calls.withLock { $0.isEmpty })
        }
    }

    @Test func bodyWithoutLengthIsCutOffWhileStreaming() async throws {
        try await withServer { server, loader in
            var options = ImageLoaderOptions()
            options.maxBodySize = 1_000_000
            let recorder = ProgressRecorder()
            await expectError(.bodyTooLarge) { () async throws(WebImageError) in
                try await loader.load(
                    ImageLoadRequest(url: server.url("/huge/20000000?chunked=1"), options: options),
                    progress: recorder.handler, partialData: nil)
            }
            let received = recorder.calls.withLock { $0.last?.received ?? 0 }
            #expect(received <= 1_000_000)
            await server.waitUntil { $0.inFlight == 0 }
            #expect(server.stats.aborted["/huge/20000000"] == 1)
        }
    }

    @Test func shortBodyThenCloseFails() async throws {
        try await withServer { server, loader in
            let error = await expectError(.incompleteResponse) { () async throws(WebImageError) in
                try await loader.load(server.url("/generated/lie?lie=5000"))
            }
            // AsyncHTTPClient may drop chunks still buffered when the connection fails, so only the total is certain.
            #expect(error?.message.contains("of 105000 bytes") == true, "\(String(describing: error))")
            #expect(error?.isTransient == true)
        }
    }

    @Test func truncatedChunkedBodyFails() async throws {
        try await withServer { server, loader in
            let error = await expectError(.incompleteResponse) { () async throws(WebImageError) in
                try await loader.load(server.url("/generated/t?truncate=30000"))
            }
            #expect(error?.isTransient == true)
        }
    }

    @Test func timeoutWhileWaitingForTheHeadFiresOnTime() async throws {
        try await withServer { server, loader in
            var options = ImageLoaderOptions()
            options.timeout = .seconds(1)
            let (error, elapsed) = await measure {
                await expectError(.timedOut) { () async throws(WebImageError) in
                    try await loader.load(server.url("/generated/slow?gate=never"), options: options)
                }
            }
            #expect(error?.isTransient == true)
            // Not before the timeout; the upper bound only tells "fired" from "hung" (no timing precision on a busy CI).
            #expect(elapsed >= 0.9 && elapsed < 10, "took \(elapsed) s")
            server.openGate("never")
        }
    }

    @Test func timeoutWhileTheBodyDripsFiresOnTime() async throws {
        try await withServer { server, loader in
            var options = ImageLoaderOptions()
            options.timeout = .seconds(2)  // long enough for the body to start even under TSan
            let recorder = ProgressRecorder()
            let (error, elapsed) = await measure {
                await expectError(.timedOut) { () async throws(WebImageError) in
                    try await loader.load(
                        ImageLoadRequest(url: server.url("/huge/1000000?drip=50&chunk=100"), options: options),
                        progress: recorder.handler, partialData: nil)
                }
            }
            #expect(error != nil)
            #expect(recorder.calls.withLock { !$0.isEmpty }, "the body had started")
            // The timeout covers the whole transfer: a per-read timeout would let this 500 s drip run on.
            #expect(elapsed >= 1.9 && elapsed < 20, "took \(elapsed) s")
            await server.waitUntil { $0.aborted["/huge/1000000"] == 1 }
        }
    }

    @Test func connectionRefusedIsTransient() async throws {
        let closed = TestImageServer()
        try await closed.start()
        let url = closed.url("/generated/x")
        try await closed.shutdown()
        var configuration = HTTPImageLoader.Configuration()
        configuration.connectTimeout = .seconds(1)  // AsyncHTTPClient retries refused connections until then
        let loader = HTTPImageLoader(configuration: configuration)
        let error = await expectError(.connectionFailed) { () async throws(WebImageError) in
            try await loader.load(url)
        }
        #expect(error?.isTransient == true)
        try await loader.shutdown()
    }

    @Test func nonHTTPURLIsInvalidSource() async throws {
        let loader = HTTPImageLoader()
        #expect(!loader.canLoad(URL(string: "ftp://example.com/a.png")!))
        await expectError(.invalidSource) { () async throws(WebImageError) in
            try await loader.load(URL(string: "ftp://example.com/a.png")!)
        }
        try await loader.shutdown()
    }
}
