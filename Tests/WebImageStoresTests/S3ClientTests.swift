import Foundation
import Testing
import WebImage

@testable import WebImageStores

/// The S3 client against a live SeaweedFS S3 gateway on 127.0.0.1, and against a socket that never answers.
@Suite(.serialized) struct S3ClientTests {
    @Test func putGetHeadConditionalPutAndDeleteAgainstSeaweedFS() async throws {
        let store = try await SeaweedFS.start()
        defer { store.process.stop() }
        let client = S3Client(
            configuration: .init(endpoint: store.endpoint, credentials: store.credentials, timeout: .seconds(10)))
        do {
            try await client.createBucket("images")
            let key = "results/ab cd/é+1.jpg"
            let bytes = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            #expect(try await client.get(bucket: "images", key: key) == nil)
            #expect(try await client.exists(bucket: "images", key: key) == false)
            #expect(try await client.put(bucket: "images", key: key, data: bytes, contentType: "image/jpeg"))
            let object = try #require(try await client.get(bucket: "images", key: key))
            #expect(object.data == bytes)
            #expect(object.contentType == "image/jpeg")
            #expect(try await client.exists(bucket: "images", key: key))

            // First writer wins: a conditional PUT over an existing object is refused and changes nothing.
            let lease = "originals/x.lease"
            #expect(try await client.put(bucket: "images", key: lease, data: Data("a".utf8), onlyIfAbsent: true))
            #expect(
                try await client.put(bucket: "images", key: lease, data: Data("b".utf8), onlyIfAbsent: true) == false)
            #expect(try await client.get(bucket: "images", key: lease)?.data == Data("a".utf8))

            try await client.delete(bucket: "images", key: key)
            #expect(try await client.get(bucket: "images", key: key) == nil)
            try await client.delete(bucket: "images", key: key)

            #expect(try await client.exists(bucket: "no-such-bucket", key: "k") == false)
        } catch {
            try await client.shutdown()
            throw error
        }
        try await client.shutdown()

        let intruder = S3Client(
            configuration: .init(
                endpoint: store.endpoint, credentials: S3Credentials(accessKey: "webimage-test", secretKey: "wrong"),
                timeout: .seconds(10)))
        let refused = await #expect(throws: WebImageError.self) { try await intruder.get(bucket: "images", key: "k") }
        #expect(refused?.code == .badStatus)
        #expect(refused?.httpStatus == 403)
        #expect(!"\(refused.map { "\($0)" } ?? "")".contains("wrong"))
        try await intruder.shutdown()
    }

    @Test func aStoreThatNeverAnswersTimesOut() async throws {
        let listener = try SilentListener()
        defer { listener.close() }
        let client = S3Client(
            configuration: .init(
                endpoint: URL(string: "http://127.0.0.1:\(listener.port)")!,
                credentials: S3Credentials(accessKey: "a", secretKey: "b"), timeout: .milliseconds(300)))
        let error = await #expect(throws: WebImageError.self) { try await client.get(bucket: "b", key: "k") }
        #expect(error?.code == .timedOut)
        try await client.shutdown()
    }

    @Test func aDeadStoreIsAConnectionFailure() async throws {
        let port = try LocalProcess.freePort()
        let client = S3Client(
            configuration: .init(
                endpoint: URL(string: "http://127.0.0.1:\(port)")!,
                credentials: S3Credentials(accessKey: "a", secretKey: "b")))
        let error = await #expect(throws: WebImageError.self) { try await client.exists(bucket: "b", key: "k") }
        #expect(error?.code == .connectionFailed)
        #expect(error?.isTransient == true)
        try await client.shutdown()
    }
}
