import AsyncHTTPClient
import Foundation
import Testing
import WebImage
import WebImageTesting

@testable import WebImageStores

/// `s3://` sources turned on as imgproxy turns them on: `IMGPROXY_USE_S3`, `IMGPROXY_S3_ENDPOINT`,
/// `IMGPROXY_S3_REGION` and the AWS SDK's `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY`, against a live SeaweedFS.
@Suite(.serialized) struct ImgproxyS3SourceTests {
    @Test func imgproxysS3VariablesReadSourcesFromTheStore() async throws {
        guard let executable = Cluster.executable else {
            throw LocalProcessError.missing("webimage was not built next to the tests")
        }
        let seaweed = try await SeaweedFS.start()
        defer { seaweed.process.stop() }
        let setup = S3Client(
            configuration: .init(endpoint: seaweed.endpoint, credentials: seaweed.credentials, timeout: .seconds(10)))
        try await setup.createBucketReadyForWrites("images")
        let photo = try Fixtures.data("corpus/images/exif_Landscape_1.jpg")
        try await setup.put(bucket: "images", key: "in/photo.jpg", data: photo, contentType: "image/jpeg")
        try await setup.shutdown()

        let port = try LocalProcess.freePort()
        let directory = try LocalProcess.temporaryDirectory("imgproxy-s3")
        let node = try await LocalProcess.startAnswering(
            executable, ["serve", "--no-cache"], in: directory, log: "serve",
            environment: [
                "IMGPROXY_BIND": "127.0.0.1:\(port)", "IMGPROXY_USE_S3": "true",
                "IMGPROXY_S3_ENDPOINT": seaweed.endpoint.absoluteString, "IMGPROXY_S3_REGION": "us-east-1",
                "AWS_ACCESS_KEY_ID": seaweed.credentials.accessKey,
                "AWS_SECRET_ACCESS_KEY": seaweed.credentials.secretKey,
            ], readyURL: "http://127.0.0.1:\(port)/health")
        defer {
            node.stop()
            try? FileManager.default.removeItem(at: directory)
        }
        let base = "http://127.0.0.1:\(port)/insecure/rs:fit:40:40/plain/"
        let found = try await HTTPClient.shared.execute(
            HTTPClientRequest(url: base + "s3%3A%2F%2Fimages%2Fin%2Fphoto.jpg@png"), timeout: .seconds(30))
        #expect(found.status.code == 200)
        #expect(found.headers.first(name: "content-type") == "image/png")
        _ = try await found.body.collect(upTo: 1 << 20)
        let missing = try await HTTPClient.shared.execute(
            HTTPClientRequest(url: base + "s3%3A%2F%2Fimages%2Fin%2Fnone.jpg"), timeout: .seconds(30))
        #expect(missing.status.code == 404)
        _ = try await missing.body.collect(upTo: 1 << 20)
    }
}
