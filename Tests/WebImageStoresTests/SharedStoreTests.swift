import Foundation
import Testing
import WebImage
import WebImageTesting

@testable import WebImageStores

/// The shared tier and its read-through loader against a live SeaweedFS, with the test image server as the origin.
@Suite(.serialized) struct SharedStoreTests {
    @Test func resultsRoundTripAndTheFirstWriterWins() async throws {
        try await withStore { (store: SharedStore) async throws in
            #expect(await store.result(source: "http://o/a.jpg", identity: "rs:fit:10:10") == nil)
            #expect(
                await store.storeResult(
                    Data("one".utf8), contentType: "image/jpeg", source: "http://o/a.jpg", identity: "rs:fit:10:10"))
            #expect(
                await store.storeResult(
                    Data("two".utf8), contentType: "image/jpeg", source: "http://o/a.jpg", identity: "rs:fit:10:10")
                    == false)
            let hit = try #require(await store.result(source: "http://o/a.jpg", identity: "rs:fit:10:10"))
            #expect(hit.data == Data("one".utf8))
            #expect(hit.contentType == "image/jpeg")
            #expect(store.resultKey(source: "http://o/a.jpg", identity: "rs:fit:10:10").hasPrefix("cluster/results/"))
            #expect(store.errorCount("put") == 0)
        }
    }

    @Test func aLeaseIsHeldOnceAndTakenOverWhenExpired() async throws {
        try await withStore { (store: SharedStore) async throws in
            let now = Date()
            #expect(await store.acquireLease(source: "http://o/b.jpg", duration: .seconds(5), now: now))
            #expect(await store.acquireLease(source: "http://o/b.jpg", duration: .seconds(5), now: now) == false)
            #expect(await store.isLeased(source: "http://o/b.jpg"))
            // A holder that died: ten seconds later its five-second lease has expired and another node takes it.
            #expect(await store.acquireLease(source: "http://o/b.jpg", duration: .seconds(5), now: now + 10))
            await store.releaseLease(source: "http://o/b.jpg")
            #expect(await store.isLeased(source: "http://o/b.jpg") == false)
        }
    }

    @Test func exactlyOneOfManyConcurrentLeaseTakersWins() async throws {
        try await withStore { (store: SharedStore) async throws in
            for round in 0..<5 {
                let winners = await withTaskGroup(of: Bool.self) { group in
                    for _ in 0..<16 {
                        group.addTask {
                            await store.acquireLease(source: "http://o/race\(round)", duration: .seconds(30))
                        }
                    }
                    var count = 0
                    for await won in group where won { count += 1 }
                    return count
                }
                #expect(winners == 1, "round \(round)")
            }
        }
    }

    @Test func concurrentNodesFetchEachSourceFromTheOriginOnce() async throws {
        let origin = TestImageServer()
        try await origin.start()
        let photo = try Fixtures.data("corpus/images/exif_Landscape_1.jpg")
        for index in 0..<4 { origin.register(photo, at: "/s\(index).jpg", contentType: "image/jpeg") }
        try await withStore { (store: SharedStore) async throws in
            // Eight "nodes": each its own loader (and connection pool) over the one tier.
            let nodes = (0..<8).map { _ in SharedStoreLoader(upstream: HTTPImageLoader(), store: store) }
            try await withThrowingTaskGroup(of: Data.self) { group in
                for node in nodes {
                    for index in 0..<4 {
                        group.addTask { try await node.load(origin.url("/s\(index).jpg?delay=200")).data }
                    }
                }
                for try await data in group { #expect(data == photo) }
            }
            for index in 0..<4 { #expect(origin.requestCount("/s\(index).jpg") == 1) }
            for node in nodes { try await node.shutdown() }
            let stored = try #require(await store.original(source: origin.url("/s0.jpg?delay=200").absoluteString))
            #expect(stored.isFresh)
            #expect(stored.contentType == "image/jpeg")
            #expect(stored.lastModified == "Wed, 21 Oct 2015 07:28:00 GMT")
        }
        try await origin.shutdown()
    }

    @Test func aFailedDownloadGivesTheLeaseBackSoOthersDoNotWait() async throws {
        let origin = TestImageServer()
        try await origin.start()
        try await withStore { (store: SharedStore) async throws in
            let loader = SharedStoreLoader(upstream: HTTPImageLoader(), store: store)
            let missing = origin.url("/status/404")
            await #expect(throws: WebImageError.self) { try await loader.load(missing) }
            #expect(await store.isLeased(source: missing.absoluteString) == false)
            #expect(await store.original(source: missing.absoluteString) == nil)
            try await loader.shutdown()
        }
        try await origin.shutdown()
    }

    @Test func purgeRemovesTheOriginalAndEveryResultOfOneSource() async throws {
        try await withStore { (store: SharedStore) async throws in
            let source = "http://o/c.jpg"
            await store.storeOriginal(
                Data("o".utf8), contentType: "image/jpeg", lastModified: nil, lifetime: .seconds(60), source: source)
            for size in 1...3 {
                await store.storeResult(
                    Data("r".utf8), contentType: "image/jpeg", source: source, identity: "w:\(size)")
            }
            await store.storeResult(
                Data("x".utf8), contentType: "image/jpeg", source: "http://o/other.jpg", identity: "w:1")
            #expect(try await store.purge(source: source) == 4)
            #expect(await store.original(source: source) == nil)
            #expect(await store.result(source: source, identity: "w:2") == nil)
            #expect(await store.result(source: "http://o/other.jpg", identity: "w:1") != nil)
            #expect(try await store.purge(source: source) == 0)
        }
    }

    @Test func s3SourcesLoadThroughTheClient() async throws {
        try await withStore { (store: SharedStore) async throws in
            try await store.client.put(
                bucket: "images", key: "in/a b.jpg", data: Data("jpeg".utf8), contentType: "image/jpeg")
            let loader = S3ImageLoader(client: store.client)
            let url = try #require(URL(string: "s3://images/in/a%20b.jpg"))
            #expect(loader.canLoad(url))
            #expect(!loader.canLoad(try #require(URL(string: "http://images/in"))))
            let response = try await loader.load(url)
            #expect(response.data == Data("jpeg".utf8))
            #expect(response.contentType == "image/jpeg")
            let missing = await #expect(throws: WebImageError.self) {
                try await loader.load(try #require(URL(string: "s3://images/in/none.jpg")))
            }
            #expect(missing?.httpStatus == 404)
            var small = ImageLoaderOptions()
            small.maxBodySize = 2
            await #expect(throws: WebImageError.self) { try await loader.load(url, options: small) }
        }
    }

    @Test func aDeadStoreIsSkippedAndCounted() async throws {
        let listener = try SilentListener()
        defer { listener.close() }
        let client = S3Client(
            configuration: .init(
                endpoint: URL(string: "http://127.0.0.1:\(listener.port)")!,
                credentials: S3Credentials(accessKey: "a", secretKey: "b"), timeout: .milliseconds(200)))
        let store = SharedStore(location: try SharedStoreLocation("s3://images/p"), client: client)
        #expect(await store.result(source: "s", identity: "i") == nil)
        #expect(await store.storeResult(Data(), contentType: nil, source: "s", identity: "i") == false)
        #expect(await store.acquireLease(source: "s", duration: .seconds(1)))
        #expect(await store.bucketExists() == nil)
        #expect(store.errorCount("get") == 1)
        #expect(store.errorCount("put") == 1)
        #expect(store.errorCount("lease") == 1)
        await #expect(throws: WebImageError.self) { try await store.purge(source: "s") }
        try await client.shutdown()
    }

    @Test func locationsParseAndRejectBadBuckets() throws {
        let location = try SharedStoreLocation("s3://images/a/b/")
        #expect(location.bucket == "images")
        #expect(location.key("results/x") == "a/b/results/x")
        #expect(try SharedStoreLocation("s3://images").key("x") == "x")
        for bad in ["http://images/p", "s3://", "s3://Up/p", "s3://ab", "s3://a_b/p"] {
            #expect(throws: WebImageError.self) { try SharedStoreLocation(bad) }
        }
    }

    @Test func listPagesAreReadWithTheirEntities() {
        let page = S3ListPage(
            xml: Data(
                """
                <ListBucketResult><IsTruncated>true</IsTruncated><Contents><Key>a&amp;b/&#x41;&lt;</Key></Contents>
                <Contents><Key>c</Key></Contents><NextContinuationToken>t1</NextContinuationToken></ListBucketResult>
                """.utf8))
        #expect(page.keys == ["a&b/A<", "c"])
        #expect(page.nextToken == "t1")
        #expect(SharedStoreLoader.maxAge("public, max-age=60") == .seconds(60))
        #expect(SharedStoreLoader.maxAge("no-store, max-age=60") == .zero)
        #expect(SharedStoreLoader.maxAge("=, max-age=x") == nil)
    }

    /// A tier in bucket `images`, prefix `cluster`, on a fresh SeaweedFS.
    private func withStore(_ body: (SharedStore) async throws -> Void) async throws {
        let seaweed = try await SeaweedFS.start()
        defer { seaweed.process.stop() }
        let client = S3Client(
            configuration: .init(endpoint: seaweed.endpoint, credentials: seaweed.credentials, timeout: .seconds(10)))
        do {
            try await client.createBucketReadyForWrites("images")
            try await body(SharedStore(location: try SharedStoreLocation("s3://images/cluster"), client: client))
        } catch {
            try await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }
}
