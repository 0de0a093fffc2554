import AsyncHTTPClient
import Foundation
import Testing
import WebImage
import WebImageTesting

@testable import WebImageStores

/// A real `webimage serve` started with only `IMGPROXY_*` and `AWS_*` variables: an assumed role reads an `s3://`
/// source from SeaweedFS, an object of the S3 Encryption Client is decrypted through KMS, a Secrets Manager secret's and SSM parameters' variables take effect (here the address it
/// listens on), and a secret that does not exist stops the start with exit status 64.
@Suite(.serialized) struct ServeAWSEnvironmentTests {
    private static let base = ["AWS_ACCESS_KEY_ID": "AKIASERVE", "AWS_SECRET_ACCESS_KEY": "serve-secret"]

    @Test func anAssumedRoleReadsS3Sources() async throws {
        guard let executable = Cluster.executable else {
            throw LocalProcessError.missing("webimage was not built next to the tests")
        }
        let seaweed = try await SeaweedFS.start(sts: true)
        defer { seaweed.process.stop() }
        let setup = S3Client(
            configuration: .init(endpoint: seaweed.endpoint, credentials: seaweed.credentials, timeout: .seconds(10)))
        try await setup.createBucketReadyForWrites("images")
        try await setup.put(
            bucket: "images", key: "photo.jpg", data: try Fixtures.data("corpus/images/exif_Landscape_1.jpg"),
            contentType: "image/jpeg")
        try await setup.shutdown()
        let sts = try await FakeAWS.start(
            .init(
                secrets: ["AKIASERVE": "serve-secret"], roleCredentials: try await seaweed.assumeRole(),
                roleLifetime: 30))
        let directory = try LocalProcess.temporaryDirectory("serve-aws")
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = try LocalProcess.freePort()
        let node = try await LocalProcess.startAnswering(
            executable, ["serve", "--no-cache"], in: directory, log: "role",
            environment: Self.base.merging([
                "IMGPROXY_BIND": "127.0.0.1:\(port)", "IMGPROXY_USE_S3": "true",
                "IMGPROXY_S3_ENDPOINT": seaweed.endpoint.absoluteString, "IMGPROXY_S3_REGION": "us-east-1",
                "IMGPROXY_S3_ASSUME_ROLE_ARN": "arn:aws:iam::123456789012:role/reader",
                "IMGPROXY_S3_ASSUME_ROLE_EXTERNAL_ID": "serve-ext", "AWS_ENDPOINT_URL_STS": sts.endpoint.absoluteString,
            ]) { $1 }, readyURL: "http://127.0.0.1:\(port)/health")
        func status(_ size: Int) async throws -> UInt {
            let source = "s3://images/photo.jpg".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let response = try await HTTPClient.shared.execute(
                HTTPClientRequest(url: "http://127.0.0.1:\(port)/insecure/rs:fit:\(size):\(size)/plain/\(source)@png"),
                timeout: .seconds(30))
            _ = try await response.body.collect(upTo: 1 << 20)
            return response.status.code
        }
        let first = try await status(40)
        // Credentials that expire within the client's window are asked for again: now refused by STS.
        sts.state.withLock { $0.secrets = [:] }
        let refused = try await status(41)
        node.stop()
        let log = (try? String(contentsOf: directory.appendingPathComponent("role.log"), encoding: .utf8)) ?? ""
        #expect(first == 200, "\(log)")
        #expect(refused != 200)
        #expect(log.contains("an AWS service refused the S3 source's credentials"), "\(log)")
        #expect(log.contains("AssumeRole answered 403 SignatureDoesNotMatch"), "\(log)")
        let call = try #require(sts.calls.first)
        #expect(call.parameters["RoleArn"] == "arn:aws:iam::123456789012:role/reader")
        #expect(call.parameters["ExternalId"] == "serve-ext")
        #expect(call.accessKey == "AKIASERVE")
        #expect(!log.contains("serve-secret"))
        #expect(!log.contains("IMGPROXY_S3_ASSUME_ROLE_ARN"), "not in the warning of unread variables: \(log)")
        await sts.stop()
    }

    @Test func encryptedSourcesAreDecryptedThroughKMS() async throws {
        guard let executable = Cluster.executable else {
            throw LocalProcessError.missing("webimage was not built next to the tests")
        }
        let seaweed = try await SeaweedFS.start()
        defer { seaweed.process.stop() }
        let photo = try Fixtures.data("corpus/images/exif_Landscape_1.jpg")
        let encrypted = try S3DecryptionTests.encrypt(photo, wrapped: Data("wrapped".utf8))
        let setup = S3Client(
            configuration: .init(endpoint: seaweed.endpoint, credentials: seaweed.credentials, timeout: .seconds(10)))
        try await setup.createBucketReadyForWrites("images")
        try await setup.put(bucket: "images", key: "secret.jpg", data: encrypted.body, metadata: encrypted.envelope)
        try await setup.put(bucket: "images", key: "plain.jpg", data: photo)
        try await setup.shutdown()
        let kms = try await FakeAWS.start(
            .init(
                secrets: [seaweed.credentials.accessKey: seaweed.credentials.secretKey],
                dataKeys: [
                    Data("wrapped".utf8).base64EncodedString(): (
                        encrypted.key, ["aws:x-amz-cek-alg": "AES/GCM/NoPadding", "kms_cmk_id": "alias/images"]
                    )
                ]))
        let directory = try LocalProcess.temporaryDirectory("serve-kms")
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = try LocalProcess.freePort()
        let node = try await LocalProcess.startAnswering(
            executable, ["serve", "--no-cache"], in: directory, log: "kms",
            environment: [
                "IMGPROXY_BIND": "127.0.0.1:\(port)", "IMGPROXY_USE_S3": "true",
                "IMGPROXY_S3_ENDPOINT": seaweed.endpoint.absoluteString, "IMGPROXY_S3_USE_DECRYPTION_CLIENT": "true",
                "AWS_ACCESS_KEY_ID": seaweed.credentials.accessKey,
                "AWS_SECRET_ACCESS_KEY": seaweed.credentials.secretKey,
                "AWS_ENDPOINT_URL_KMS": kms.endpoint.absoluteString,
            ], readyURL: "http://127.0.0.1:\(port)/health")
        var statuses: [UInt] = []
        for key in ["secret.jpg", "plain.jpg"] {
            let source = "s3://images/\(key)".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let response = try await HTTPClient.shared.execute(
                HTTPClientRequest(url: "http://127.0.0.1:\(port)/insecure/rs:fit:40:40/plain/\(source)@png"),
                timeout: .seconds(30))
            _ = try await response.body.collect(upTo: 1 << 20)
            statuses.append(response.status.code)
        }
        node.stop()
        let log = (try? String(contentsOf: directory.appendingPathComponent("kms.log"), encoding: .utf8)) ?? ""
        // The encrypted object decrypts; a plain one, without an envelope or instruction file, is missing.
        #expect(statuses == [200, 404], "\(log)")
        #expect(kms.calls.map(\.operation) == ["Decrypt"])
        #expect(!log.contains(encrypted.key.base64EncodedString()))
        await kms.stop()
    }

    @Test func secretAndParameterVariablesTakeEffectAndABadSecretExits64() async throws {
        guard let executable = Cluster.executable else {
            throw LocalProcessError.missing("webimage was not built next to the tests")
        }
        let (environmentPort, secretPort, parameterPort) = (
            try LocalProcess.freePort(), try LocalProcess.freePort(), try LocalProcess.freePort()
        )
        let fake = try await FakeAWS.start(
            .init(
                secrets: ["AKIASERVE": "serve-secret"],
                secretStrings: ["webimage/prod": "IMGPROXY_BIND=127.0.0.1:\(secretPort)\nIMGPROXY_TTL=77\n"],
                parameters: [("/webimage/IMGPROXY_BIND", "127.0.0.1:\(parameterPort)", "text")]))
        let directory = try LocalProcess.temporaryDirectory("serve-aws-env")
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = Self.base.merging([
            "IMGPROXY_BIND": "127.0.0.1:\(environmentPort)", "IMGPROXY_ENV_AWS_SECRET_ID": "webimage/prod",
            "AWS_ENDPOINT_URL": fake.endpoint.absoluteString,
        ]) { $1 }

        // The secret's address beats the environment's.
        let secret = try await LocalProcess.startAnswering(
            executable, ["serve", "--no-cache"], in: directory, log: "secret", environment: environment,
            readyURL: "http://127.0.0.1:\(secretPort)/health")
        secret.stop()
        // The SSM parameters are loaded after the secret, over it.
        let parameters = try await LocalProcess.startAnswering(
            executable, ["serve", "--no-cache"], in: directory, log: "parameters",
            environment: environment.merging(["IMGPROXY_ENV_AWS_SSM_PARAMETERS_PATH": "/webimage"]) { $1 },
            readyURL: "http://127.0.0.1:\(parameterPort)/health")
        parameters.stop()
        #expect(fake.calls.map(\.operation) == ["GetSecretValue", "GetSecretValue", "GetParametersByPath"])
        #expect(fake.calls.allSatisfy { $0.region == "us-west-1" })

        let missing = try LocalProcess.start(
            executable, ["serve", "--no-cache"], in: directory, log: "missing",
            environment: environment.merging(["IMGPROXY_ENV_AWS_SECRET_ID": "webimage/none"]) { $1 })
        missing.process.waitUntilExit()
        let log = (try? String(contentsOf: directory.appendingPathComponent("missing.log"), encoding: .utf8)) ?? ""
        #expect(missing.process.terminationStatus == 64, "\(log)")
        #expect(log.contains("ResourceNotFoundException"), "\(log)")
        #expect(!log.contains("serve-secret"))
        await fake.stop()
    }
}
