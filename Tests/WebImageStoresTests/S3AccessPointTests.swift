import Foundation
import Testing
import WebImage

@testable import WebImageStores

/// Access point ARNs named as buckets (imgproxy's `IMGPROXY_S3_ACCESS_POINTS`), resolved as the AWS SDKs' S3
/// endpoint rules resolve them, then read from a live SeaweedFS through a virtual host.
@Suite struct S3AccessPointTests {
    private let arn = "arn:aws:s3:us-west-2:123456789012:accesspoint/photos"

    private func target(
        _ endpoint: String, _ addressing: S3Addressing = .auto, bucket: String, region: String = "us-west-2"
    ) throws -> S3RequestTarget {
        try S3RequestTarget(
            endpoint: URL(string: endpoint)!, addressing: addressing, bucket: bucket, key: "in/a.jpg", region: region)
    }

    @Test func awsEndpointsGoToTheAccessPointsHost() throws {
        let aws = try target("https://s3.us-west-2.amazonaws.com", bucket: arn)
        #expect(aws.url == "https://photos-123456789012.s3-accesspoint.us-west-2.amazonaws.com/in/a.jpg")
        #expect(aws.host == "photos-123456789012.s3-accesspoint.us-west-2.amazonaws.com")
        #expect(aws.path == "/in/a.jpg")
        // The `accesspoint:NAME` spelling, and path-style asked for: on AWS's endpoint the SDK ignores it there
        // (imgproxy sets path-style only with a custom endpoint).
        let colon = try target(
            "https://s3.us-west-2.amazonaws.com", .path, bucket: "arn:aws:s3:us-west-2:123456789012:accesspoint:photos")
        #expect(colon.host == "photos-123456789012.s3-accesspoint.us-west-2.amazonaws.com")
    }

    @Test func customEndpointsArePrefixedAndMustBeVirtualHosted() throws {
        let custom = try target("http://store.internal:9000/base", .virtual, bucket: arn)
        #expect(custom.url == "http://photos-123456789012.store.internal:9000/base/in/a.jpg")
        #expect(custom.host == "photos-123456789012.store.internal:9000")
        // imgproxy's default with IMGPROXY_S3_ENDPOINT is path-style, which the SDK refuses for an ARN.
        for addressing in [S3Addressing.path, .auto] {
            #expect(throws: S3ConfigurationError.self) {
                try target("http://store.internal:9000", addressing, bucket: arn)
            }
        }
    }

    @Test func refusedAsTheSDKsRefuseThem() throws {
        for bucket in [
            "arn:aws:s3:us-east-1:123456789012:accesspoint/photos",  // another region than the client's
            "arn:aws:sqs:us-west-2:123456789012:queue",  // not S3
            "arn:aws:s3:us-west-2:123456789012:accesspoint/pho_tos",  // not a host label
            "arn:aws:s3:us-west-2:123456789012",  // too few fields
        ] {
            #expect(throws: S3ConfigurationError.self, "\(bucket)") {
                try target("https://s3.us-west-2.amazonaws.com", bucket: bucket)
            }
        }
        // A value that is not an ARN is a bucket name (imgproxy's own tests map an access point to a bucket).
        let bucket = try target("http://127.0.0.1:9000", bucket: "other-bucket")
        #expect(bucket.url == "http://127.0.0.1:9000/other-bucket/in/a.jpg")
        #expect(throws: Never.self) { try S3ImageLoader.checkAccessPoint("other-bucket") }
        #expect(throws: S3ConfigurationError.self) { try S3ImageLoader.checkAccessPoint("arn:aws:sqs:x:y:z") }
    }

    /// A loader whose URLs name `photos` reads the access point's host, which a SeaweedFS with `-s3.domainName`
    /// answers as the bucket `photos-123456789012`; the name in the URL is what the bucket policy checks.
    @Test func loaderReadsThroughTheAccessPoint() async throws {
        let seaweed = try await SeaweedFS.start(domainName: "localhost")
        defer { seaweed.process.stop() }
        let setup = S3Client(
            configuration: .init(endpoint: seaweed.endpoint, credentials: seaweed.credentials, timeout: .seconds(10)))
        try await setup.createBucketReadyForWrites("photos-123456789012")
        try await setup.put(bucket: "photos-123456789012", key: "in/a.jpg", data: Data("through".utf8))
        try await setup.shutdown()
        var configuration = S3Client.Configuration(
            endpoint: URL(string: "http://localhost:\(seaweed.ports[3])")!, region: "us-east-1",
            credentials: seaweed.credentials, addressing: .virtual, timeout: .seconds(10))
        configuration.connectHost = "127.0.0.1"
        let client = S3Client(configuration: configuration)
        let loader = S3ImageLoader(
            client: client, buckets: S3BucketPolicy(allowed: ["photos"]),
            accessPoints: ["photos": "arn:aws:s3:us-east-1:123456789012:accesspoint/photos"])
        let response = try await loader.load(
            ImageLoadRequest(url: URL(string: "s3://photos/in/a.jpg")!), progress: nil, partialData: nil)
        #expect(response.data == Data("through".utf8))
        try await client.shutdown()
    }
}
