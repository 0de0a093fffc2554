import Foundation
import Testing
import WebImageTesting

@testable import WebImage

/// ``ImageResult/dataSource`` and ``ImageResult/validators``: where the bytes came from and what the source said
/// of their version, so that a client (the server) needs no second cache query.
@Suite struct ManagerDataSourceTests {
    /// A loader that answers as a shared cache would, from `upstream`'s bytes.
    struct SharedCacheLoader: ImageLoading {
        let upstream: HTTPImageLoader

        func canLoad(_ url: URL) -> Bool { upstream.canLoad(url) }

        func load(
            _ request: ImageLoadRequest, progress: ImageLoadProgressHandler?, partialData: ImagePartialDataHandler?
        ) async throws(WebImageError) -> ImageResponse {
            var response = try await upstream.load(request, progress: progress, partialData: partialData)
            response.fromSharedCache = true
            return response
        }
    }

    @Test func originThenMemoryThenDiskWithTheOriginsValidators() async throws {
        try await withManager { harness in
            let url = harness.url("/photo.jpg")
            let first = try await harness.manager.image(for: url, options: [.waitStoreCache, .avoidDecode])
            #expect(first.dataSource == .origin)
            #expect(first.validators.lastModified == "Wed, 21 Oct 2015 07:28:00 GMT")
            #expect(first.validators.etag?.isEmpty == false)
            let decoded = try await harness.manager.image(for: url)
            let memory = try await harness.manager.image(for: url)
            #expect(decoded.dataSource == .disk, "the first load kept no decoded image in memory")
            #expect(memory.dataSource == .memory)
            #expect(memory.validators == ImageValidators(), "a memory hit has no validators")
            let other = ManagerHarness.manager(
                loader: harness.loader, directory: harness.directory, coder: harness.coder)
            let disk = try await other.image(for: url, options: .avoidDecode)
            #expect(disk.dataSource == .disk)
            #expect(disk.validators == first.validators, "the disk entry keeps them")
            #expect(harness.server.requestCount("/photo.jpg") == 1)
        }
    }

    @Test func aLoaderReadingThroughASharedCacheSaysSo() async throws {
        try await withManager { harness in
            let manager = ImageManager(
                configuration: .init(loader: SharedCacheLoader(upstream: harness.loader), cache: ImageCaches([])))
            let result = try await manager.image(for: harness.url("/photo.jpg"), options: .avoidDecode)
            #expect(result.dataSource == .sharedCache)
            #expect(result.cacheType == .none)
            await manager.shutdown()
        }
    }
}
