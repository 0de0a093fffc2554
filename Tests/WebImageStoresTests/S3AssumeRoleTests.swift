import Foundation
import Testing
import WebImage

@testable import WebImageStores

/// `IMGPROXY_S3_ASSUME_ROLE_ARN`: the base keys sign STS `AssumeRole` (checked by the fake STS's own Signature V4
/// code), and the temporary credentials it answers, real ones of a SeaweedFS with its STS on, sign the S3 requests;
/// credentials about to expire are asked for again.
@Suite(.serialized) struct S3AssumeRoleTests {
    private let base = S3Credentials(accessKey: "AKIABASE", secretKey: "base-secret")

    @Test func temporaryCredentialsSignS3AndAreRefreshedBeforeTheyExpire() async throws {
        let seaweed = try await SeaweedFS.start(sts: true)
        defer { seaweed.process.stop() }
        let setup = S3Client(
            configuration: .init(endpoint: seaweed.endpoint, credentials: seaweed.credentials, timeout: .seconds(10)))
        try await setup.createBucketReadyForWrites("images")
        try await setup.put(bucket: "images", key: "a.jpg", data: Data("role".utf8))
        try await setup.shutdown()
        let temporary = try await seaweed.assumeRole()
        // Expiring within the client's window of 60 s: every request asks STS again.
        let sts = try await FakeAWS.start(
            .init(secrets: [base.accessKey: base.secretKey], roleCredentials: temporary, roleLifetime: 30))
        var configuration = S3Client.Configuration(
            endpoint: seaweed.endpoint, region: "eu-central-1", credentials: base, timeout: .seconds(10))
        configuration.assumeRole = S3AssumeRole(
            roleARN: "arn:aws:iam::123456789012:role/images", externalID: "ext-1", endpoint: sts.endpoint,
            region: "eu-central-1")
        let client = S3Client(configuration: configuration)
        #expect(try await client.get(bucket: "images", key: "a.jpg")?.data == Data("role".utf8))
        #expect(try await client.get(bucket: "images", key: "a.jpg")?.data == Data("role".utf8))
        let calls = sts.calls
        #expect(calls.count == 2)
        let call = try #require(calls.first)
        #expect(call.operation == "AssumeRole")
        #expect(call.parameters["RoleArn"] == "arn:aws:iam::123456789012:role/images")
        #expect(call.parameters["ExternalId"] == "ext-1")
        #expect(call.parameters["Version"] == "2011-06-15")
        #expect(call.parameters["RoleSessionName"]?.isEmpty == false)
        #expect(call.accessKey == "AKIABASE" && call.sessionToken == nil)
        #expect(call.service == "sts" && call.region == "eu-central-1")
        try await client.shutdown()

        // Lasting an hour: one AssumeRole for several requests.
        sts.state.withLock { $0.roleLifetime = 3600 }
        let lasting = S3Client(configuration: configuration)
        for _ in 0..<3 { #expect(try await lasting.get(bucket: "images", key: "a.jpg") != nil) }
        #expect(sts.calls.count == 3)
        try await lasting.shutdown()

        // Base keys STS refuses: the S3 request fails with STS's 403, naming no secret.
        sts.state.withLock { $0.secrets = [:] }
        let refused = S3Client(configuration: configuration)
        do {
            _ = try await refused.get(bucket: "images", key: "a.jpg")
            Issue.record("expected STS's refusal")
        } catch {
            #expect(error.httpStatus == 403)
            #expect(error.description.contains("SignatureDoesNotMatch"), "\(error)")
            #expect(!error.description.contains("base-secret"))
        }
        try await refused.shutdown()
        await sts.stop()
    }
}
