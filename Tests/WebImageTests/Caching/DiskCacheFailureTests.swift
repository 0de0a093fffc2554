import Foundation
import Testing
import WebImageTesting

@testable import WebImage

extension CachingTests {
    /// Full and read-only file systems, on real tmpfs mounts (needs root and a container that allows mounting; the
    /// tests are skipped otherwise).
    @Suite("Caching: DiskCache on failing file systems", .serialized, .enabled(if: CacheFixtures.canMount))
    struct DiskCacheFailureTests {
        @Test func fullDiskThrowsCacheFailureAndLeavesNoPartialFile() async throws {
            let directory = TemporaryDirectory()
            #expect(CacheFixtures.mountTmpfs(directory.path, size: 64 * 1024))
            defer { CacheFixtures.unmount(directory.path) }
            let cache = CacheFixtures.disk(directory.url)
            let small = CacheTestPayload.make(size: 8 * 1024, seed: 1)
            try await cache.store(small, forKey: "small")

            let error = await #expect(throws: WebImageError.self) {
                try await cache.store(CacheTestPayload.make(size: 256 * 1024, seed: 2), forKey: "big")
            }
            #expect(error?.code == .cacheFailure)
            #expect(error?.message.contains("No space left") == true, "\(String(describing: error))")
            // The failed write left nothing behind, the old entry is intact, and a replacement that fails keeps it.
            #expect(CacheFixtures.files(in: directory.url).count == 1)
            #expect(await cache.data(forKey: "big") == nil)
            await #expect(throws: WebImageError.self) {
                try await cache.store(CacheTestPayload.make(size: 256 * 1024, seed: 3), forKey: "small")
            }
            #expect(await cache.data(forKey: "small") == small)
            // Space freed: writes work again.
            await cache.removeAll()
            try await cache.store(CacheTestPayload.make(size: 32 * 1024, seed: 4), forKey: "after")
            #expect(await cache.data(forKey: "after").map(CacheTestPayload.isIntact) == true)
        }

        @Test func readOnlyDirectoryServesReadsAndFailsWritesCleanly() async throws {
            let directory = TemporaryDirectory()
            #expect(CacheFixtures.mountTmpfs(directory.path, size: 1 << 20))
            defer { CacheFixtures.unmount(directory.path) }
            let clock = TestClock()
            let cache = CacheFixtures.disk(directory.url, clock: clock, maxAge: 10)
            let payload = CacheTestPayload.make(size: 4096, seed: 9)
            try await cache.store(payload, forKey: "kept")
            #expect(CacheFixtures.remountReadOnly(directory.path))

            let error = await #expect(throws: WebImageError.self) {
                try await cache.store(payload, forKey: "new")
            }
            #expect(error?.code == .cacheFailure)
            #expect(error?.message.contains("Read-only") == true, "\(String(describing: error))")
            clock.advance(by: 5)
            #expect(await cache.data(forKey: "kept") == payload, "reads work; the last-access update fails silently")
            await cache.remove(forKey: "kept")
            await cache.removeAll()
            clock.advance(by: 100)
            #expect(await cache.removeExpired() == 0)
            #expect(await cache.trim(toSize: 0) == 0)
            #expect(await cache.count() == 1, "nothing could be deleted, nothing crashed")
        }

        @Test func unwritableCacheDirectoryPathThrows() async throws {
            let directory = TemporaryDirectory()
            #expect(CacheFixtures.mountTmpfs(directory.path, size: 65_536))
            defer { CacheFixtures.unmount(directory.path) }
            #expect(CacheFixtures.remountReadOnly(directory.path))
            let cache = CacheFixtures.disk(directory.appending("sub/dir"))
            let error = await #expect(throws: WebImageError.self) {
                try await cache.store(Data("x".utf8), forKey: "k")
            }
            #expect(error?.code == .cacheFailure)
            #expect(await cache.data(forKey: "k") == nil)
        }
    }
}
