import Foundation
import Testing
import WebImage

@testable import WebImageStores

/// Each source of credentials the AWS tools read, resolved by ``S3Environment`` from explicit environments and files
/// in a temporary home, against one live SeaweedFS with its STS on (temporary credentials with a session token) and
/// virtual-hosted addressing (`BUCKET.localhost`); a wrong key is a typed 403 naming the source, never the secret.
@Suite(.serialized) struct S3CredentialSourceTests {
    @Test func eachSourceOfCredentialsReadsFromSeaweedFS() async throws {
        let seaweed = try await SeaweedFS.start(sts: true, domainName: "localhost")
        defer { seaweed.process.stop() }
        let setup = S3Client(
            configuration: .init(endpoint: seaweed.endpoint, credentials: seaweed.credentials, timeout: .seconds(10)))
        let bytes = Data("an object read with each source of credentials".utf8)
        do {
            try await setup.createBucketReadyForWrites("sources")
            try await setup.put(bucket: "sources", key: "in/photo.jpg", data: bytes)
        } catch {
            try? await setup.shutdown()
            throw error
        }
        try await setup.shutdown()
        let temporary = try await seaweed.assumeRole()
        #expect(temporary.sessionToken != nil)
        #expect(temporary.accessKey != seaweed.credentials.accessKey)

        let home = try LocalProcess.temporaryDirectory("aws-home")
        defer { try? FileManager.default.removeItem(at: home) }
        let aws = home.appendingPathComponent(".aws")
        try FileManager.default.createDirectory(at: aws, withIntermediateDirectories: true)
        let (key, secret) = (seaweed.credentials.accessKey, seaweed.credentials.secretKey)
        let credentialsPath = aws.appendingPathComponent("credentials").path
        let configPath = aws.appendingPathComponent("config").path
        try Data(
            """
            [default]
            aws_access_key_id = \(key)
            aws_secret_access_key = not-the-secret

            [reader]
            aws_access_key_id = \(temporary.accessKey)
            aws_secret_access_key = \(temporary.secretKey)
            aws_session_token = \(temporary.sessionToken ?? "")
            """.utf8
        ).write(to: URL(fileURLWithPath: credentialsPath))
        try Data(
            """
            [profile configured]
            aws_access_key_id = \(key)
            aws_secret_access_key = \(secret)
            services = local

            [services local]
            s3 =
              endpoint_url = \(seaweed.endpoint.absoluteString)

            [profile virtual]
            aws_access_key_id = \(key)
            aws_secret_access_key = \(secret)
            endpoint_url = http://localhost:\(seaweed.ports[3])
            s3 =
              addressing_style = virtual
            """.utf8
        ).write(to: URL(fileURLWithPath: configPath))
        let endpoint = seaweed.endpoint.absoluteString

        /// Resolves `variables` (HOME is the temporary one) and reads the object with the client they make.
        func read(
            _ variables: [String: String], connectHost: String? = nil
        ) async throws -> (source: S3CredentialSource, data: Data?) {
            let resolved = try S3Environment(["HOME": home.path].merging(variables) { $1 }).resolve()
            var configuration = resolved.configuration(timeout: .seconds(10))
            configuration.connectHost = connectHost
            let client = S3Client(configuration: configuration)
            do {
                let object = try await client.get(bucket: "sources", key: "in/photo.jpg")
                try await client.shutdown()
                return (resolved.credentialSource, object?.data)
            } catch {
                try? await client.shutdown()
                throw error
            }
        }

        /// The error of reading with `variables`, which must be a refused request.
        func refusal(_ variables: [String: String]) async -> WebImageError? {
            await #expect(throws: WebImageError.self) { _ = try await read(variables) }
        }

        let environment = try await read([
            "AWS_ACCESS_KEY_ID": key, "AWS_SECRET_ACCESS_KEY": secret, "AWS_ENDPOINT_URL_S3": endpoint,
        ])
        #expect(environment.source == .environment("AWS_ACCESS_KEY_ID"))
        #expect(environment.data == bytes)

        let session = try await read([
            "AWS_ACCESS_KEY_ID": temporary.accessKey, "AWS_SECRET_ACCESS_KEY": temporary.secretKey,
            "AWS_SESSION_TOKEN": temporary.sessionToken ?? "", "AWS_ENDPOINT_URL": endpoint,
        ])
        #expect(session.source == .environment("AWS_ACCESS_KEY_ID"))
        #expect(session.data == bytes)

        let profile = try await read(["AWS_PROFILE": "reader", "AWS_ENDPOINT_URL": endpoint])
        #expect(profile.source == .credentialsFile(profile: "reader", path: credentialsPath))
        #expect(profile.data == bytes)

        let configured = try await read(["AWS_PROFILE": "configured"])
        #expect(configured.source == .configFile(profile: "configured", path: configPath))
        #expect(configured.data == bytes)

        // `BUCKET.localhost` does not resolve here: the connection goes to 127.0.0.1, the Host header (signed) is
        // `sources.localhost:PORT`, which SeaweedFS started with -s3.domainName=localhost reads as the bucket.
        let virtual = try await read(["AWS_PROFILE": "virtual"], connectHost: "127.0.0.1")
        #expect(virtual.source == .configFile(profile: "virtual", path: configPath))
        #expect(virtual.data == bytes)

        // A wrong secret in the default profile: 403, the store's code, the source and the key id, not the secret.
        let wrong = await refusal(["AWS_ENDPOINT_URL_S3": endpoint])
        #expect(wrong?.code == .badStatus)
        #expect(wrong?.httpStatus == 403)
        let store = wrong?.underlying as? S3StoreError
        #expect(store?.code == "SignatureDoesNotMatch")
        #expect(store?.credentialSource == .credentialsFile(profile: "default", path: credentialsPath))
        let message = wrong.map { "\($0)" } ?? ""
        #expect(message.contains("with the credentials from profile 'default' in \(credentialsPath)"), "\(message)")
        #expect(message.contains("(access key \(key))"), "\(message)")
        #expect(!message.contains("not-the-secret"))

        // Temporary keys without their token, or with a forged one, are refused too; neither is shown.
        let tokenless = await refusal([
            "AWS_ACCESS_KEY_ID": temporary.accessKey, "AWS_SECRET_ACCESS_KEY": temporary.secretKey,
            "AWS_ENDPOINT_URL_S3": endpoint,
        ])
        #expect(tokenless?.httpStatus == 403)
        #expect((tokenless?.underlying as? S3StoreError)?.credentialSource == .environment("AWS_ACCESS_KEY_ID"))
        let forged = await refusal([
            "AWS_ACCESS_KEY_ID": temporary.accessKey, "AWS_SECRET_ACCESS_KEY": temporary.secretKey,
            "AWS_SESSION_TOKEN": (temporary.sessionToken ?? "") + "x", "AWS_ENDPOINT_URL_S3": endpoint,
        ])
        #expect(forged?.httpStatus == 403)
        for error in [tokenless, forged] {
            let text = error.map { "\($0)" } ?? ""
            #expect(!text.contains(temporary.secretKey) && !text.contains(temporary.sessionToken ?? "-"), "\(text)")
        }
    }
}
