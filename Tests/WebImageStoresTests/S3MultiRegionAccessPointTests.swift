import Foundation
import Hummingbird
import Testing
import WebImage

@testable import WebImageStores

/// Multi-Region and Outposts access point ARNs in `IMGPROXY_S3_ACCESS_POINTS`, resolved as the AWS SDKs' S3 endpoint
/// rules resolve them (botocore's rule set gives the same hosts and errors), then read from a local fake S3 that checks
/// every request's Signature Version 4A with its own code: the connection goes to 127.0.0.1, the `Host` header and the
/// signature keep the access point's host (AWS's global one for Multi-Region), which is never reached.
@Suite struct S3MultiRegionAccessPointTests {
    private let mrap = "arn:aws:s3::123456789012:accesspoint/mfzwi23gnjvgw.mrap"
    private let global = "mfzwi23gnjvgw.mrap.accesspoint.s3-global.amazonaws.com"

    private func target(
        _ endpoint: String, _ addressing: S3Addressing = .auto, bucket: String, region: String = "us-west-2"
    ) throws -> S3RequestTarget {
        try S3RequestTarget(
            endpoint: URL(string: endpoint)!, addressing: addressing, bucket: bucket, key: "in/a.jpg", region: region)
    }

    @Test func resolvedToTheGlobalHostForEveryRegion() throws {
        for region in ["us-west-2", "eu-central-1"] {
            let resolved = try target("https://s3.\(region).amazonaws.com", bucket: mrap, region: region)
            #expect(resolved.url == "https://\(global)/in/a.jpg")
            #expect(resolved.host == global && resolved.path == "/in/a.jpg" && resolved.regionSet == ["*"])
        }
        let colon = try target("https://s3.us-west-2.amazonaws.com", bucket: "arn:aws:s3::123456789012:accesspoint:a.b")
        #expect(colon.host == "a.b.accesspoint.s3-global.amazonaws.com")
        let china = try target(
            "https://s3.cn-north-1.amazonaws.com.cn", bucket: "arn:aws-cn:s3::123456789012:accesspoint/x.mrap",
            region: "cn-north-1")
        #expect(china.host == "x.mrap.accesspoint.s3-global.amazonaws.com.cn")
        // As in the SDKs, a custom endpoint does not move it, but it must be virtual-hosted.
        let custom = try target("http://store.internal:9000", .virtual, bucket: mrap)
        #expect(custom.url == "https://\(global)/in/a.jpg")
        // A regional access point stays Signature Version 4.
        let regional = try target(
            "https://s3.us-west-2.amazonaws.com", bucket: "arn:aws:s3:us-west-2:123456789012:accesspoint/photos")
        #expect(regional.regionSet == nil)
    }

    /// Outposts access points: the SDKs sign them with Signature Version 4A too, for the service `s3-outposts`.
    @Test func outpostsAccessPointsAreResolvedAsTheSDKsResolveThem() throws {
        let outposts = "arn:aws:s3-outposts:us-west-2:123456789012:outpost/op-01234567890123456/accesspoint/photos"
        let aws = try target("https://s3.us-west-2.amazonaws.com", bucket: outposts)
        #expect(
            aws.url == "https://photos-123456789012.op-01234567890123456.s3-outposts.us-west-2.amazonaws.com/in/a.jpg")
        #expect(aws.regionSet == ["*"] && aws.signingService == "s3-outposts")
        let colons = try target(
            "https://s3.us-west-2.amazonaws.com",
            bucket: "arn:aws:s3-outposts:us-west-2:123456789012:outpost:op-01234567890123456:accesspoint:photos")
        #expect(colons.host == aws.host)
        let custom = try target("http://store.internal:9000", .virtual, bucket: outposts)
        #expect(custom.url == "https://photos-123456789012.op-01234567890123456.store.internal:9000/in/a.jpg")
        #expect(custom.host == "photos-123456789012.op-01234567890123456.store.internal:9000")
        for bucket in [
            "arn:aws:s3-outposts:us-west-2:123456789012:outpost/op-01234567890123456/bucket/photos",
            "arn:aws:s3-outposts:us-west-2:123456789012:outpost/op-01234567890123456/accesspoint/photos/more",
            "arn:aws:s3-outposts:us-west-2:123456789012:outpost/op_1/accesspoint/photos",
            "arn:aws:s3-outposts:us-west-2:123456789012:outpost/op-01234567890123456/accesspoint/my_ap",
            "arn:aws:s3-outposts:us-west-2:123456789012:outpost",
            "arn:aws:s3-outposts:us-east-1:123456789012:outpost/op-01234567890123456/accesspoint/photos",
        ] {
            #expect(throws: S3ConfigurationError.self, "\(bucket)") {
                try target("https://s3.us-west-2.amazonaws.com", bucket: bucket)
            }
        }
        #expect(throws: S3ConfigurationError.self) { try target("http://store.internal:9000", .path, bucket: outposts) }
    }

    @Test func refusedAsTheSDKsRefuseThem() throws {
        for (bucket, endpoint, addressing, region) in [
            (mrap, "http://store.internal:9000", S3Addressing.path, "us-west-2"),  // path-style with an ARN
            (mrap, "http://store.internal:9000", .auto, "us-west-2"),  // imgproxy's default with an endpoint
            (mrap, "https://s3.cn-north-1.amazonaws.com.cn", .auto, "cn-north-1"),  // another partition
            ("arn:aws:s3::123456789012:accesspoint/my_name", "https://s3.us-west-2.amazonaws.com", .auto, "us-west-2"),
            ("arn:aws:s3::123456789012:accesspoint/a..b", "https://s3.us-west-2.amazonaws.com", .auto, "us-west-2"),
        ] {
            #expect(throws: S3ConfigurationError.self, "\(bucket) \(endpoint)") {
                try target(endpoint, addressing, bucket: bucket, region: region)
            }
        }
        #expect(throws: Never.self) { try S3ImageLoader.checkAccessPoint(mrap) }
    }

    @Test(arguments: [
        (
            "arn:aws:s3::123456789012:accesspoint/mfzwi23gnjvgw.mrap", "https://s3.us-east-1.amazonaws.com",
            "mfzwi23gnjvgw.mrap.accesspoint.s3-global.amazonaws.com", "s3"
        ),
        (
            "arn:aws:s3-outposts:us-east-1:123456789012:outpost/op-01234567890123456/accesspoint/photos",
            "http://outposts.internal:9000", "photos-123456789012.op-01234567890123456.outposts.internal:9000",
            "s3-outposts"
        ),
    ])
    func loaderReadsThroughTheAccessPointSignedWithVersion4A(
        arn: String, endpoint: String, host: String, service: String
    ) async throws {
        let secrets = ["AKIAMRAP": "mrap-secret"]
        let seen = Locked<[(host: String, regionSet: String, service: String)]>([])
        let router = Router()
        router.get("**") { request, _ -> Response in
            var headers: [(String, String)] = request.headers.map { ($0.name.canonicalName, $0.value) }
            headers.append(("host", request.head.authority ?? ""))
            guard
                let signer = FakeAWSSignatureV4A.verify(
                    method: "GET", path: request.uri.path, query: request.uri.query ?? "", headers: headers,
                    body: Data(), secrets: secrets)
            else { return Response(status: .forbidden) }
            seen.withLock { $0.append((request.head.authority ?? "", signer.regionSet, signer.service)) }
            return Response(
                status: .ok, headers: [.contentType: "image/jpeg"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: "through \(request.uri.path)")))
        }
        let fake = try await LocalRouterServer.start(router)
        func loader(secret: String) -> S3ImageLoader {
            var configuration = S3Client.Configuration(
                endpoint: URL(string: endpoint)!, region: "us-east-1",
                credentials: S3Credentials(accessKey: "AKIAMRAP", secretKey: secret), addressing: .virtual,
                timeout: .seconds(10))
            configuration.connectEndpoint = URL(string: "http://127.0.0.1:\(fake.port)")
            return S3ImageLoader(
                client: S3Client(configuration: configuration), buckets: S3BucketPolicy(allowed: ["global"]),
                accessPoints: ["global": arn])
        }
        let good = loader(secret: "mrap-secret")
        let wrong = loader(secret: "another")
        // Both clients are shut down even when a load throws: one left open would end the test process.
        var response: Result<ImageResponse, WebImageError>
        do {
            response = .success(
                try await good.load(
                    ImageLoadRequest(url: URL(string: "s3://global/in/a%20b.jpg")!), progress: nil, partialData: nil))
        } catch { response = .failure(error) }
        var refused: WebImageError?
        do {
            _ = try await wrong.load(
                ImageLoadRequest(url: URL(string: "s3://global/in/a.jpg")!), progress: nil, partialData: nil)
        } catch { refused = error }
        try await good.client.shutdown()
        try await wrong.client.shutdown()
        await fake.stop()
        #expect(try response.get().data == Data("through /in/a%20b.jpg".utf8))
        let calls = seen.withLock { $0 }
        #expect(calls.count == 1 && calls.first?.host == host && calls.first?.regionSet == "*")
        #expect(calls.first?.service == service)
        #expect(refused?.httpStatus == 403)
    }
}
