import Foundation
import Testing
import WebImageTesting

@testable import WebImage

extension CachingTests {
    @Suite("Caching: DiskCache")
    struct DiskCacheTests {
        @Test func storesAndReadsBackWithMetadata() async throws {
            let directory = TemporaryDirectory()
            let clock = TestClock()
            let cache = CacheFixtures.disk(directory.appending("cache"), clock: clock)
            let payload = CacheTestPayload.make(size: 50_000, seed: 7)
            let attributes = CacheEntryAttributes(
                format: .png, etag: "\"abc\"", lastModified: "Tue, 01 Jan 2030 00:00:00 GMT")
            try await cache.store(payload, forKey: "https://example.com/a.png", attributes: attributes)

            let entry = try #require(await cache.entry(forKey: "https://example.com/a.png"))
            #expect(entry.data == payload)
            #expect(entry.metadata.key == "https://example.com/a.png")
            #expect(entry.metadata.size == 50_000)
            #expect(entry.metadata.format == .png)
            #expect(entry.metadata.etag == "\"abc\"")
            #expect(entry.metadata.lastModified == "Tue, 01 Jan 2030 00:00:00 GMT")
            #expect(entry.metadata.created == clock.now)
            #expect(entry.metadata.expires == nil)
            #expect(await cache.data(forKey: "https://example.com/b.png") == nil)
            #expect(await cache.contains("https://example.com/a.png"))
            #expect(!(await cache.contains("https://example.com/b.png")))
            #expect(await cache.count() == 1)
            #expect(await cache.totalSize() > 50_000)
        }

        /// The origin's `Cache-Control` and `Expires` are kept in a version 2 header; an entry without them is still
        /// written as version 1, which this version and the ones before it read.
        @Test func freshnessHeadersAreKeptInAVersionTwoHeader() async throws {
            let directory = TemporaryDirectory()
            let cache = CacheFixtures.disk(directory.appending("cache"), clock: TestClock())
            let payload = CacheTestPayload.make(size: 1000, seed: 3)
            let attributes = CacheEntryAttributes(
                format: .png, etag: "\"e\"", cacheControl: "max-age=60, public",
                expiresHeader: "Wed, 21 Oct 2015 07:28:00 GMT")
            try await cache.store(payload, forKey: "fresh", attributes: attributes)
            let entry = try #require(await cache.entry(forKey: "fresh"))
            #expect(entry.data == payload && entry.metadata.etag == "\"e\"")
            #expect(entry.metadata.cacheControl == "max-age=60, public")
            #expect(entry.metadata.expiresHeader == "Wed, 21 Oct 2015 07:28:00 GMT")

            let plain = DiskEntryHeader(
                payloadLength: 3, created: Date(timeIntervalSince1970: 1), expires: nil, key: "k", format: .png,
                etag: nil, lastModified: "x")
            let bytes = plain.encoded()
            #expect(bytes[4] == 1 && bytes[5] == 0, "no freshness: version 1, as before")
            let fresh = DiskEntryHeader(
                payloadLength: 3, created: Date(timeIntervalSince1970: 1), expires: nil, key: "k", format: .png,
                etag: nil, lastModified: "x", cacheControl: "", expiresHeader: nil)
            let freshBytes = fresh.encoded()
            #expect(freshBytes[4] == 2)
            for (header, encoded) in [(plain, bytes), (fresh, freshBytes)] {
                let parsed = encoded.withUnsafeBytes { DiskEntryHeader(parsing: $0) }
                #expect(parsed == header)
            }
        }

        @Test func filesAreNamedByTheSHA256OfTheKey() async throws {
            let directory = TemporaryDirectory()
            let cache = CacheFixtures.disk(directory.url)
            try await cache.store(Data("x".utf8), forKey: "abc")
            // SHA-256("abc"), a published test vector.
            let name = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
            #expect(CacheFixtures.files(in: directory.url) == [name])
            #expect(cache.fileURL(forKey: "abc").lastPathComponent == name)
        }

        @Test func replacingAnEntryAndRemovingIt() async throws {
            let directory = TemporaryDirectory()
            let cache = CacheFixtures.disk(directory.url)
            try await cache.store(Data("one".utf8), forKey: "k")
            try await cache.store(Data("two!".utf8), forKey: "k")
            #expect(await cache.data(forKey: "k") == Data("two!".utf8))
            await cache.remove(forKey: "k")
            await cache.remove(forKey: "absent")
            #expect(await cache.data(forKey: "k") == nil)
            #expect(CacheFixtures.files(in: directory.url).isEmpty)
        }

        @Test func absentKeyDoesNotCreateTheDirectory() async {
            let directory = TemporaryDirectory()
            let cache = CacheFixtures.disk(directory.appending("never"))
            #expect(await cache.data(forKey: "nothing") == nil)
            #expect(await cache.count() == 0)
            #expect(!FileManager.default.fileExists(atPath: directory.appending("never").path))
        }

        @Test func truncatedCorruptAndMisnamedEntriesAreMissesAndDeleted() async throws {
            let directory = TemporaryDirectory()
            let cache = CacheFixtures.disk(directory.url)
            for key in ["truncated", "garbage", "swapped-a", "swapped-b", "extended"] {
                try await cache.store(CacheTestPayload.make(size: 1000, seed: 1), forKey: key)
            }
            let truncated = cache.fileURL(forKey: "truncated")
            let bytes = try Data(contentsOf: truncated)
            try bytes.prefix(bytes.count - 1).write(to: truncated)
            try Data(repeating: 0x42, count: 2000).write(to: cache.fileURL(forKey: "garbage"))
            // An entry renamed to another key's file: the header's key does not match.
            try FileManager.default.removeItem(at: cache.fileURL(forKey: "swapped-b"))
            try FileManager.default.moveItem(
                at: cache.fileURL(forKey: "swapped-a"), to: cache.fileURL(forKey: "swapped-b"))
            let handle = try FileHandle(forWritingTo: cache.fileURL(forKey: "extended"))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data([1, 2, 3]))
            try handle.close()

            for key in ["truncated", "garbage", "swapped-b", "extended"] {
                #expect(await cache.data(forKey: key) == nil, "\(key)")
                #expect(!FileManager.default.fileExists(atPath: cache.fileURL(forKey: key).path), "\(key)")
            }
        }

        @Test func foreignFilesAreIgnoredAndKept() async throws {
            let directory = TemporaryDirectory()
            let cache = CacheFixtures.disk(directory.url, maxSize: 100)
            try Data("hello".utf8).write(to: directory.appending("README"))
            try FileManager.default.createDirectory(
                at: directory.appending(String(repeating: "a", count: 64)),
                withIntermediateDirectories: true)
            try await cache.store(Data(count: 10), forKey: "k")
            #expect(await cache.count() == 1)
            await cache.removeExpired()
            await cache.trim(toSize: 0)
            await cache.removeAll()
            #expect(CacheFixtures.files(in: directory.url) == ["README", String(repeating: "a", count: 64)])
        }

        @Test func entriesExpireAfterMaxAgeOrTheirOwnExpiry() async throws {
            let directory = TemporaryDirectory()
            let clock = TestClock()
            let cache = CacheFixtures.disk(directory.url, clock: clock, maxAge: 100)
            try await cache.store(Data("old".utf8), forKey: "old")
            try await cache.store(
                Data("short".utf8), forKey: "short",
                attributes: CacheEntryAttributes(expires: clock.now.addingTimeInterval(10)))
            try await cache.store(
                Data("long".utf8), forKey: "long",
                attributes: CacheEntryAttributes(expires: clock.now.addingTimeInterval(1000)))
            clock.advance(by: 50)
            try await cache.store(Data("young".utf8), forKey: "young")
            #expect(await cache.data(forKey: "short") == nil)
            #expect(await cache.entry(forKey: "short", includingExpired: true)?.data == Data("short".utf8))
            #expect(await cache.data(forKey: "old") != nil)
            clock.advance(by: 51)  // "old" is 101 s old
            #expect(await cache.data(forKey: "old") == nil)
            #expect(await cache.removeExpired() == 2)
            #expect(await cache.count() == 2)
            #expect(await cache.data(forKey: "young") != nil)
            #expect(await cache.data(forKey: "long") != nil)
            clock.advance(by: 100)
            #expect(await cache.removeExpired() == 1)
            #expect(await cache.data(forKey: "long") != nil)
        }

        @Test func trimRemovesLeastRecentlyAccessedDownToTheRatio() async throws {
            let directory = TemporaryDirectory()
            let clock = TestClock()
            // Each entry: 1000 bytes + a header of 40 + 4 × 4 + key + format ≈ 1066 bytes.
            let cache = CacheFixtures.disk(directory.url, clock: clock, maxSize: 10_000)
            for index in 0..<9 {
                try await cache.store(Data(count: 1000), forKey: "k\(index)")
                clock.advance(by: 120)
            }
            #expect(await cache.trim() == 0, "under the limit: nothing to do")
            // Reading k0 and k1 makes them recent (older than the access-time resolution).
            _ = await cache.data(forKey: "k0")
            clock.advance(by: 120)
            _ = await cache.data(forKey: "k1")
            clock.advance(by: 120)
            // The tenth entry crosses 10,000 bytes: the write trims down to 8,000 in its wake.
            try await cache.store(Data(count: 1000), forKey: "k9")
            let size = await cache.totalSize()
            #expect(size <= 8_000 && size > 6_000)
            for index in [0, 1, 9] { #expect(await cache.contains("k\(index)"), "k\(index) was recent") }
            for index in [2, 3] { #expect(!(await cache.contains("k\(index)")), "k\(index) was oldest") }
            #expect(await cache.trim(toSize: 0) == 7)
            #expect(await cache.count() == 0)
        }

        @Test func readOnlyDirectoriesAreSearchedAfterTheMainOne() async throws {
            let main = TemporaryDirectory()
            let bundled = TemporaryDirectory()
            let writer = CacheFixtures.disk(bundled.url)
            try await writer.store(Data("bundled".utf8), forKey: "logo")
            try await writer.store(Data("bundled".utf8), forKey: "both")
            try await writer.store(Data("torn entry".utf8), forKey: "torn")
            let torn = writer.fileURL(forKey: "torn")
            try Data(contentsOf: torn).dropLast(3).write(to: torn)
            // A plain file named by the key's hash is served as is.
            try Data("raw".utf8).write(to: bundled.appending(DiskStorage.fileName(forKey: "raw")))

            let clock = TestClock()
            let cache = CacheFixtures.disk(main.url, clock: clock, maxAge: 1, readOnly: [bundled.url])
            try await cache.store(Data("main".utf8), forKey: "both")
            #expect(await cache.data(forKey: "logo") == Data("bundled".utf8))
            #expect(await cache.data(forKey: "raw") == Data("raw".utf8))
            #expect(await cache.data(forKey: "both") == Data("main".utf8))
            #expect(await cache.data(forKey: "torn") == nil, "a damaged entry is not served as raw bytes")
            #expect(await cache.contains("logo"))
            clock.advance(by: 1000)
            #expect(await cache.data(forKey: "logo") != nil, "bundled entries do not expire")
            await cache.removeAll()
            await cache.remove(forKey: "logo")
            #expect(await cache.data(forKey: "logo") != nil, "read-only directories are never written")
            #expect(CacheFixtures.files(in: bundled.url).count == 4)
        }

        @Test func staleTemporaryFilesAreSweptButFreshOnesKept() async throws {
            let directory = TemporaryDirectory()
            let clock = TestClock(Date())
            let cache = CacheFixtures.disk(directory.url, clock: clock)
            try Data("partial".utf8).write(to: directory.appending(".tmp-1-dead"))
            await cache.removeExpired()
            #expect(CacheFixtures.files(in: directory.url) == [".tmp-1-dead"], "may belong to a live writer")
            clock.advance(by: 7200)
            await cache.removeExpired()
            #expect(CacheFixtures.files(in: directory.url).isEmpty)
        }

        @Test func backgroundSweepRemovesExpiredEntries() async throws {
            let directory = TemporaryDirectory()
            let clock = TestClock()
            let cache = DiskCache(
                directory: directory.url,
                configuration: DiskCache.Configuration(maxAge: 10, sweepInterval: 0.05), clock: clock.function)
            try await cache.store(Data("x".utf8), forKey: "k")
            clock.advance(by: 11)
            var remaining = 1
            for _ in 0..<100 where remaining > 0 {
                try await Task.sleep(for: .milliseconds(20))
                remaining = CacheFixtures.files(in: directory.url).count
            }
            #expect(remaining == 0)
        }

        @Test func defaultDirectoryFollowsXDG() {
            let url = DiskCache.defaultDirectory(namespace: "ns")
            #expect(url.lastPathComponent == "ns")
            #expect(url.deletingLastPathComponent().lastPathComponent == "swift-web-image")
            if let xdg = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
                #expect(url.path.hasPrefix(xdg))
            } else {
                #expect(url.path.hasSuffix("/.cache/swift-web-image/ns"))
            }
        }

        @Test func twoInstancesOnOneDirectoryHammeredConcurrently() async throws {
            let directory = TemporaryDirectory()
            let caches = [CacheFixtures.disk(directory.url), CacheFixtures.disk(directory.url)]
            let damaged = await withTaskGroup(of: Int.self) { group in
                for worker in 0..<8 {
                    group.addTask {
                        let cache = caches[worker % 2]
                        var damaged = 0
                        for step in 0..<200 {
                            let key = "k\((step * 7 + worker) % 10)"
                            switch step % 4 {
                            case 0:
                                let payload = CacheTestPayload.make(size: 100 + step * 50, seed: UInt8(worker))
                                try? await cache.store(payload, forKey: key)
                            case 1: await cache.remove(forKey: key)
                            case 2: if step % 40 == 2 { await cache.trim(toSize: 20_000) }
                            default:
                                if let data = await cache.data(forKey: key), !CacheTestPayload.isIntact(data) {
                                    damaged += 1
                                }
                            }
                        }
                        return damaged
                    }
                }
                return await group.reduce(0, +)
            }
            #expect(damaged == 0)
            let leftovers = CacheFixtures.files(in: directory.url).filter { $0.hasPrefix(".tmp-") }
            #expect(leftovers.isEmpty)
        }
    }
}
