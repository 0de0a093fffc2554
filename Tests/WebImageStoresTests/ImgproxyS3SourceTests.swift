import AsyncHTTPClient
import Foundation
import Testing
import WebImage
import WebImageTesting

@testable import WebImageStores

/// `s3://` sources turned on as imgproxy turns them on: `IMGPROXY_USE_S3`, `IMGPROXY_S3_ENDPOINT`,
/// `IMGPROXY_S3_REGION` and the AWS SDK's `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY`; then with credentials,
/// region and endpoint from the AWS shared files and a profile, allowed and denied buckets, and a wrong secret; each
/// `webimage serve` against one live SeaweedFS.
@Suite(.serialized) struct ImgproxyS3SourceTests {
    @Test func imgproxysVariablesAndTheAWSFilesReadSourcesFromTheStore() async throws {
        guard let executable = Cluster.executable else {
            throw LocalProcessError.missing("webimage was not built next to the tests")
        }
        let seaweed = try await SeaweedFS.start()
        defer { seaweed.process.stop() }
        let setup = S3Client(
            configuration: .init(endpoint: seaweed.endpoint, credentials: seaweed.credentials, timeout: .seconds(10)))
        let photo = try Fixtures.data("corpus/images/exif_Landscape_1.jpg")
        for bucket in ["images", "other"] {
            try await setup.createBucketReadyForWrites(bucket)
            try await setup.put(bucket: bucket, key: "in/photo.jpg", data: photo, contentType: "image/jpeg")
        }
        try await setup.shutdown()
        let directory = try LocalProcess.temporaryDirectory("imgproxy-s3")
        defer { try? FileManager.default.removeItem(at: directory) }

        /// Starts `webimage serve` with `environment`, asks for each `s3://` source and returns the statuses and
        /// the server's log.
        func statuses(
            _ environment: [String: String], arguments: [String] = [], sources: [String], log: String
        ) async throws -> (statuses: [UInt], log: String) {
            let port = try LocalProcess.freePort()
            let node = try await LocalProcess.startAnswering(
                executable, ["serve", "--no-cache"] + arguments, in: directory, log: log,
                environment: ["IMGPROXY_BIND": "127.0.0.1:\(port)"].merging(environment) { $1 },
                readyURL: "http://127.0.0.1:\(port)/health")
            var statuses: [UInt] = []
            for source in sources {
                let encoded = source.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? source
                let response = try await HTTPClient.shared.execute(
                    HTTPClientRequest(url: "http://127.0.0.1:\(port)/insecure/rs:fit:40:40/plain/\(encoded)@png"),
                    timeout: .seconds(30))
                statuses.append(response.status.code)
                if response.status == .ok { #expect(response.headers.first(name: "content-type") == "image/png") }
                _ = try await response.body.collect(upTo: 1 << 20)
            }
            node.stop()
            let text = (try? String(contentsOf: directory.appendingPathComponent("\(log).log"), encoding: .utf8)) ?? ""
            return (statuses, text)
        }

        let imgproxy = try await statuses(
            [
                "IMGPROXY_USE_S3": "true", "IMGPROXY_S3_ENDPOINT": seaweed.endpoint.absoluteString,
                "IMGPROXY_S3_REGION": "us-east-1", "AWS_ACCESS_KEY_ID": seaweed.credentials.accessKey,
                "AWS_SECRET_ACCESS_KEY": seaweed.credentials.secretKey,
            ], sources: ["s3://images/in/photo.jpg", "s3://images/in/none.jpg"], log: "imgproxy")
        #expect(imgproxy.statuses == [200, 404])
        #expect(imgproxy.log.contains("credentials=environment AWS_ACCESS_KEY_ID"), "\(imgproxy.log)")

        // Keys from the credentials file's profile, region and endpoint from the config file's; only `images` and
        // `other` allowed, `other` denied: imgproxy answers a refused bucket 404.
        let credentials = directory.appendingPathComponent("credentials")
        let config = directory.appendingPathComponent("config")
        try Data(
            """
            [reader]
            aws_access_key_id = \(seaweed.credentials.accessKey)
            aws_secret_access_key = \(seaweed.credentials.secretKey)
            """.utf8
        ).write(to: credentials)
        try Data("[profile reader]\nregion = us-east-1\nendpoint_url = \(seaweed.endpoint.absoluteString)\n".utf8)
            .write(to: config)
        let files = [
            "AWS_PROFILE": "reader", "AWS_SHARED_CREDENTIALS_FILE": credentials.path, "AWS_CONFIG_FILE": config.path,
        ]
        let profile = try await statuses(
            files, arguments: ["--use-s3", "--s3-allowed-buckets", "images,other", "--s3-denied-buckets", "other"],
            sources: ["s3://images/in/photo.jpg", "s3://other/in/photo.jpg", "s3://third/in/photo.jpg"],
            log: "profile")
        #expect(profile.statuses == [200, 404, 404])
        #expect(profile.log.contains("credentials=profile 'reader' in \(credentials.path)"), "\(profile.log)")
        #expect(profile.log.contains("endpoint_from=profile 'reader' in \(config.path)"), "\(profile.log)")
        let denied = try await statuses(
            files.merging(["IMGPROXY_S3_DENIED_BUCKETS": "other"]) { $1 }, arguments: ["--use-s3"],
            sources: ["s3://other/in/photo.jpg", "s3://images/in/photo.jpg"], log: "denied")
        #expect(denied.statuses == [404, 200])

        // A wrong secret: the store's 403 is answered (as imgproxy answers a 4xx from the store) and the log names
        // where the credentials came from and the key id, never the secret.
        let wrong = try await statuses(
            [
                "WEBIMAGE_S3_SOURCE_ENDPOINT": seaweed.endpoint.absoluteString,
                "AWS_ACCESS_KEY_ID": seaweed.credentials.accessKey, "AWS_SECRET_ACCESS_KEY": "not-the-secret",
            ], sources: ["s3://images/in/photo.jpg"], log: "wrong")
        #expect(wrong.statuses == [403])
        #expect(wrong.log.contains("the S3 source store refused the credentials"), "\(wrong.log)")
        #expect(
            wrong.log.contains(
                "SignatureDoesNotMatch with the credentials from environment AWS_ACCESS_KEY_ID (access key "
                    + "\(seaweed.credentials.accessKey))"), "\(wrong.log)")
        #expect(!wrong.log.contains("not-the-secret"))
    }

    /// imgproxy's S3 reader sets `Cache-Control` and `Expires` from the object's, so
    /// `IMGPROXY_CACHE_CONTROL_PASSTHROUGH` passes them on; its file reader sets neither, so a `local://` source
    /// answers the TTL.
    @Test func theObjectsCacheControlIsPassedOnAndAFilesIsNot() async throws {
        let executable = try #require(Cluster.executable, "webimage was not built next to the tests")
        let seaweed = try await SeaweedFS.start()
        defer { seaweed.process.stop() }
        let setup = S3Client(
            configuration: .init(endpoint: seaweed.endpoint, credentials: seaweed.credentials, timeout: .seconds(10)))
        let photo = try Fixtures.data("corpus/images/exif_Landscape_1.jpg")
        try await setup.createBucketReadyForWrites("images")
        try await setup.put(
            bucket: "images", key: "cc.jpg", data: photo, contentType: "image/jpeg",
            cacheControl: "public, max-age=4321, immutable")
        try await setup.put(
            bucket: "images", key: "expires.jpg", data: photo, contentType: "image/jpeg",
            expires: AzureBlobClient.httpDate(Date().addingTimeInterval(5000)))
        try await setup.shutdown()
        let directory = try LocalProcess.temporaryDirectory("imgproxy-s3-cache-control")
        defer { try? FileManager.default.removeItem(at: directory) }
        try photo.write(to: directory.appendingPathComponent("local.jpg"))
        let port = try LocalProcess.freePort()
        let node = try await LocalProcess.startAnswering(
            executable, ["serve", "--no-cache"], in: directory, log: "passthrough",
            environment: [
                "IMGPROXY_BIND": "127.0.0.1:\(port)", "IMGPROXY_USE_S3": "true",
                "IMGPROXY_S3_ENDPOINT": seaweed.endpoint.absoluteString, "IMGPROXY_S3_REGION": "us-east-1",
                "AWS_ACCESS_KEY_ID": seaweed.credentials.accessKey,
                "AWS_SECRET_ACCESS_KEY": seaweed.credentials.secretKey,
                "IMGPROXY_LOCAL_FILESYSTEM_ROOT": directory.path, "IMGPROXY_CACHE_CONTROL_PASSTHROUGH": "true",
                "IMGPROXY_TTL": "98",
            ], readyURL: "http://127.0.0.1:\(port)/health")
        defer { node.stop() }
        var answers: [String] = []
        for source in ["s3://images/cc.jpg", "s3://images/expires.jpg", "local:///local.jpg", "s3://images/cc.jpg"] {
            let encoded = source.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? source
            let response = try await HTTPClient.shared.execute(
                HTTPClientRequest(url: "http://127.0.0.1:\(port)/insecure/rs:fit:40:40/plain/\(encoded)@png"),
                timeout: .seconds(30))
            #expect(response.status == .ok, "\(source)")
            answers.append(response.headers.first(name: "cache-control") ?? "")
            _ = try await response.body.collect(upTo: 1 << 20)
        }
        #expect(answers[0] == "public, max-age=4321, immutable")
        let age = Int(answers[1].dropFirst("max-age=".count).prefix { $0.isNumber }) ?? 0
        #expect(answers[1].hasPrefix("max-age=") && (4800...5000).contains(age), "\(answers[1])")
        #expect(answers[2] == "max-age=98, public")
        #expect(answers[3] == answers[0], "the cached result keeps the object's")
    }
}
