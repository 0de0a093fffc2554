import Foundation
import Testing
import WebImage
import WebImageTesting

/// The failed-URL set, revalidation and progressive previews.
@Suite struct ManagerFailureTests {
    @Test(arguments: ["/status/404", "/status/403", "/broken.jpg", "/html"])
    func permanentFailuresAreRemembered(path: String) async throws {
        try await withManager { harness in
            let url = harness.url(path)
            let first = await expectManagerError { try await harness.manager.image(for: url) }
            #expect(first.map { !$0.isTransient } == true)
            #expect(harness.manager.isFailedURL(url))
            await expectManagerError(.failedURL) { try await harness.manager.image(for: url) }
            let served = harness.server.requestCount(URL(string: "http://x\(path)")!.path)
            await expectManagerError(first?.code ?? .corruptData) {
                try await harness.manager.image(for: url, options: .retryFailed)
            }
            #expect(harness.server.requestCount(URL(string: "http://x\(path)")!.path) == served + 1)
        }
    }

    @Test(arguments: ["/status/500", "/status/503", "/status/429", "/status/408"])
    func transientFailuresAreNotRemembered(path: String) async throws {
        try await withManager { harness in
            let url = harness.url(path)
            _ = await expectManagerError { try await harness.manager.image(for: url) }
            #expect(!harness.manager.isFailedURL(url))
            _ = await expectManagerError { try await harness.manager.image(for: url) }
            #expect(harness.server.requestCount(path) == 2)
        }
    }

    @Test func timeoutsAreNotRemembered() async throws {
        try await withManager { harness in
            let url = harness.url("/photo.jpg?delay=3000")
            var options = ImageLoaderOptions()
            options.timeout = .milliseconds(300)
            await expectManagerError(.timedOut) {
                try await harness.manager.image(for: ImageRequest(url: url, loaderOptions: options))
            }
            #expect(!harness.manager.isFailedURL(url))
        }
    }

    @Test func refreshWithAnUnchangedImageReusesTheCachedBytes() async throws {
        try await withManager { harness in
            let url = harness.url("/photo.jpg")
            _ = try await harness.manager.image(for: url, options: .waitStoreCache)
            let refreshed = try await harness.manager.image(for: url, options: .refreshCached)
            #expect(refreshed.cacheType == .disk)
            #expect(refreshed.image?.size == PixelSize(width: 640, height: 480))
            #expect(harness.server.requestCount("/photo.jpg") == 2)
            let headers = harness.server.stats.lastHeaders["/photo.jpg"] ?? []
            #expect(headers.contains { $0.name.lowercased() == "if-none-match" })
        }
    }

    @Test func refreshWithAChangedImageLoadsTheNewOne() async throws {
        try await withManager { harness in
            let url = harness.url("/photo.jpg")
            _ = try await harness.manager.image(for: url, options: .waitStoreCache)
            harness.server.register(ManagerHarness.gif, at: "/photo.jpg", contentType: "image/gif")
            let refreshed = try await harness.manager.image(for: url, options: .refreshCached)
            #expect(refreshed.cacheType == .none)
            #expect(refreshed.image?.format == .gif)
            let again = try await harness.manager.image(for: url)
            #expect(again.image?.format == .gif)
        }
    }

    @Test func progressiveLoadDeliversPreviewsBeforeTheFinalImage() async throws {
        try await withManager { harness in
            let url = harness.url("/progressive.jpg?chunk=4000&drip=150")
            let task = harness.manager.task(for: ImageRequest(url: url, options: .progressiveLoad))
            var previews: [Image] = []
            for await preview in task.previews { previews.append(preview) }
            let final = try await task.result
            #expect(!previews.isEmpty)
            #expect(previews.allSatisfy { $0.size == PixelSize(width: 640, height: 480) })
            #expect(previews.first?.pixels != final.image?.pixels)
        }
    }

    @Test func progressIsReported() async throws {
        try await withManager { harness in
            let task = harness.manager.task(for: ImageRequest(url: harness.url("/photo.jpg?chunk=2000&drip=5")))
            var events: [ImageProgress] = []
            for await event in task.progress { events.append(event) }
            _ = try await task.result
            #expect(events.count > 1)
            #expect(events.last?.received == ManagerHarness.jpeg.count)
        }
    }
}
