import Foundation
import Testing
import WebImageTesting

@testable import WebImage

/// A disk cache that cannot take the write never costs the caller its image, waiting or not.
@Suite(.serialized, .enabled(if: CacheFixtures.canMount))
struct ManagerDiskFailureTests {
    @Test(arguments: [ImageOptions(), .waitStoreCache])
    func aFullDiskStillDeliversTheImageAndLeavesNoFile(options: ImageOptions) async throws {
        let directory = TemporaryDirectory()
        #expect(CacheFixtures.mountTmpfs(directory.path, size: 16 * 1024))  // smaller than the 56 KB JPEG
        defer { CacheFixtures.unmount(directory.path) }
        let harness = try await ManagerHarness(directory: directory.url)
        do {
            let url = harness.url("/photo.jpg")
            let result = try await harness.manager.image(for: url, options: options)
            #expect(result.cacheType == .none)
            #expect(result.image?.size == PixelSize(width: 640, height: 480))
            await harness.manager.waitForPendingStores()
            #expect(await harness.cache.disk.contains(url.absoluteString) == false)
            #expect(CacheFixtures.files(in: directory.url).isEmpty, "no entry and no temporary file")
            #expect(try await harness.manager.image(for: url, options: options).cacheType == .memory)
        } catch {
            await harness.shutdown()
            throw error
        }
        await harness.shutdown()
    }
}
