import Foundation
import Testing
import WebImage

@testable import WebImageStores

/// The shared tier on a replicated SeaweedFS (every object on two volume servers): killing one volume server loses
/// no stored result.
@Suite(.serialized) struct StoreFailureTests {
    @Test func everyResultIsStillReadableAfterAVolumeServerDies() async throws {
        let seaweed = try await ReplicatedSeaweedFS.start()
        defer { seaweed.stop() }
        let client = S3Client(
            configuration: .init(endpoint: seaweed.endpoint, credentials: seaweed.credentials, timeout: .seconds(10)))
        do {
            try await client.createBucketReadyForWrites("replicated")
            let store = SharedStore(location: try SharedStoreLocation("s3://replicated/r"), client: client)
            let payloads = (0..<40).map { index in
                Data((0..<(2_000 + index * 97)).map { UInt8(truncatingIfNeeded: $0 &* (index + 3)) })
            }
            for (index, payload) in payloads.enumerated() {
                #expect(
                    await store.storeResult(
                        payload, contentType: "image/jpeg", source: "http://o/\(index % 8).jpg", identity: "w:\(index)")
                )
            }
            seaweed.volumes[0].stop()
            for (index, payload) in payloads.enumerated() {
                let object = await store.result(source: "http://o/\(index % 8).jpg", identity: "w:\(index)")
                #expect(object?.data == payload, "result \(index)")
            }
            #expect(store.errorCount("get") == 0)
        } catch {
            try await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }
}
