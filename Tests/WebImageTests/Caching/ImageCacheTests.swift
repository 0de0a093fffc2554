import Foundation
import Testing
import WebImageTesting

@testable import WebImage

extension CachingTests {
    @Suite("Caching: ImageCache and ImageCaches")
    struct ImageCacheTests {
        private func makeCache(_ directory: URL) -> ImageCache {
            ImageCache(memory: MemoryImageCache(), disk: CacheFixtures.disk(directory))
        }

        @Test func storeEncodesToDiskAndKeepsTheImageInMemory() async throws {
            let directory = TemporaryDirectory()
            let cache = makeCache(directory.url)
            let image = CacheFixtures.image(8, 8, RGBA(red: 200, green: 10, blue: 30))
            try await cache.store(image, forKey: "red")
            #expect(cache.cachedImage(forKey: "red") === image)
            let memoryHit = try #require(await cache.query(forKey: "red"))
            #expect(memoryHit.cacheType == .memory && memoryHit.image === image && memoryHit.data == nil)

            let diskEntry = try #require(await cache.disk.entry(forKey: "red"))
            #expect(diskEntry.metadata.format == .png, "an image of unknown format is encoded as PNG")
            #expect(await cache.contains("red", in: .all) == .memory)
            #expect(await cache.contains("red", in: .disk) == .disk)
            #expect(await cache.count(in: .all) == 2)
        }

        @Test func animationsStoredWithoutBytesKeepTheirFramesOnDisk() async throws {
            let directory = TemporaryDirectory()
            let cache = makeCache(directory.url)
            let gif = try ImageCoders.default.decode(
                Data(contentsOf: Fixtures.corpus.appendingPathComponent("images/gen_anim.gif")), options: .default)
            try await cache.store(gif, forKey: "anim")
            cache.memory.removeAll()
            let hit = try #require(await cache.query(forKey: "anim"))
            #expect(hit.cacheType == .disk)
            #expect(hit.image?.frames.count == gif.frames.count)
            #expect(hit.metadata?.format == .gif)
        }

        @Test func diskHitIsDecodedAndPromotedToMemory() async throws {
            let directory = TemporaryDirectory()
            let cache = makeCache(directory.url)
            let image = CacheFixtures.image(8, 8, RGBA(red: 1, green: 2, blue: 3))
            try await cache.store(image, forKey: "k", attributes: CacheEntryAttributes(etag: "v1"))
            cache.memory.removeAll()
            #expect(cache.cachedImage(forKey: "k") == nil)

            let raw = try #require(await cache.query(forKey: "k", in: .all, decode: false))
            #expect(raw.cacheType == .disk && raw.image == nil && raw.data != nil)
            #expect(cache.cachedImage(forKey: "k") == nil, "an undecoded query promotes nothing")

            let hit = try #require(await cache.query(forKey: "k"))
            #expect(hit.cacheType == .disk)
            #expect(hit.metadata?.etag == "v1")
            #expect(hit.image?.pixels == image.pixels)
            #expect(cache.cachedImage(forKey: "k") === hit.image)
            #expect(await cache.query(forKey: "k")?.cacheType == .memory)
            #expect(await cache.query(forKey: "k", in: .memory, decode: true)?.cacheType == .memory)
        }

        @Test func bytesThatFailToDecodeAreEvictedNotServed() async throws {
            let directory = TemporaryDirectory()
            let cache = makeCache(directory.url)
            try await cache.store(nil, data: Data("<html>not an image</html>".utf8), forKey: "bad")
            #expect(await cache.disk.contains("bad"))
            #expect(await cache.query(forKey: "bad") == nil)
            #expect(!(await cache.disk.contains("bad")))
            #expect(cache.cachedImage(forKey: "bad") == nil)
        }

        @Test func storeWithGivenBytesWritesThemVerbatimAndTiersAreSelectable() async throws {
            let directory = TemporaryDirectory()
            let cache = makeCache(directory.url)
            let image = CacheFixtures.image()
            let bytes = try ImageCoders.default.encode(image, as: .png, options: EncodingOptions())
            try await cache.store(image, data: bytes, forKey: "disk-only", attributes: .none, in: .disk)
            #expect(cache.cachedImage(forKey: "disk-only") == nil)
            #expect(await cache.disk.data(forKey: "disk-only") == bytes)
            try await cache.store(image, data: bytes, forKey: "memory-only", attributes: .none, in: .memory)
            #expect(!(await cache.disk.contains("memory-only")))
            await cache.remove(forKey: "disk-only", from: .memory)
            #expect(await cache.disk.contains("disk-only"))
            await cache.removeAll(from: .all)
            #expect(await cache.count(in: .all) == 0)
            #expect(await cache.totalSize(in: .all) == 0)
        }

        @Test func compositeSerialQueryStopsAtTheFirstHitInPriorityOrder() async throws {
            let first = MemoryImageCache()
            let second = MemoryImageCache()
            let a = CacheFixtures.image()
            let b = CacheFixtures.image()
            second.setImage(b, forKey: "k")
            let caches = ImageCaches([first, second])
            #expect(await caches.query(forKey: "k")?.image === b)
            first.setImage(a, forKey: "k")
            #expect(await caches.query(forKey: "k")?.image === a)
            #expect(caches.cachedImage(forKey: "k") === a)
            #expect(await caches.query(forKey: "absent") == nil)
            #expect(await caches.contains("k", in: .all) == .memory)
            #expect(await caches.count(in: .all) == 2)
        }

        @Test func compositeStorePolicies() async throws {
            let first = MemoryImageCache()
            let second = MemoryImageCache()
            let image = CacheFixtures.image()

            try await ImageCaches([first, second]).store(image, forKey: "highest")
            #expect(first.image(forKey: "highest") != nil && second.image(forKey: "highest") == nil)

            try await ImageCaches([first, second], policies: .init(store: .lowestOnly)).store(image, forKey: "lowest")
            #expect(first.image(forKey: "lowest") == nil && second.image(forKey: "lowest") != nil)

            for policy in [ImageCachesPolicy.serial, .concurrent] {
                try await ImageCaches([first, second], policies: .init(store: policy)).store(image, forKey: "\(policy)")
                #expect(first.image(forKey: "\(policy)") != nil && second.image(forKey: "\(policy)") != nil)
            }

            let lowestQuery = ImageCaches([first, second], policies: .init(query: .lowestOnly))
            #expect(await lowestQuery.query(forKey: "highest") == nil)
            #expect(await lowestQuery.query(forKey: "lowest") != nil)
            let concurrentQuery = ImageCaches(
                [first, second], policies: .init(query: .concurrent, contains: .concurrent))
            #expect(await concurrentQuery.query(forKey: "lowest") != nil)
            #expect(await concurrentQuery.contains("highest", in: .all) == .memory)

            await ImageCaches([first, second], policies: .init(remove: .highestOnly)).remove(forKey: "serial")
            #expect(first.image(forKey: "serial") == nil && second.image(forKey: "serial") != nil)
            await ImageCaches([first, second]).removeAll(from: .all)
            #expect(first.count == 0 && second.count == 0)
        }

        @Test func compositeStoreReportsAFailingMember() async throws {
            let directory = TemporaryDirectory()
            let blocker = directory.appending("file")
            try Data("x".utf8).write(to: blocker)
            // The disk cache's directory is a path under a regular file: every write fails.
            let broken = ImageCache(disk: CacheFixtures.disk(blocker.appendingPathComponent("cache")))
            let memory = MemoryImageCache()
            for policy in [ImageCachesPolicy.serial, .concurrent] {
                let caches = ImageCaches([memory, broken], policies: .init(store: policy))
                let error = await #expect(throws: WebImageError.self) {
                    try await caches.store(nil, data: Data("x".utf8), forKey: "k")
                }
                #expect(error?.code == .cacheFailure)
            }
        }
    }
}
