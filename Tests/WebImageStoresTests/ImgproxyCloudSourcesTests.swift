import AsyncHTTPClient
import Foundation
import Testing
import WebImage
import WebImageTesting

@testable import WebImageStores

/// `gs://`, `abs://` and `swift://` sources and the GCP Secret Manager variables of a real `webimage serve` started
/// with imgproxy's variables only, every store a ``FakeCloudStore`` on 127.0.0.1.
@Suite(.serialized) struct ImgproxyCloudSourcesTests {
    /// Starts `webimage serve` with `environment`, asks for each source and returns the statuses, the last answer's
    /// headers and the server's log.
    static func serve(
        _ environment: [String: String], sources: [String], in directory: URL, log: String
    ) async throws -> (statuses: [UInt], cacheControl: String, cacheControls: [String], log: String) {
        let executable = try #require(Cluster.executable, "webimage was not built next to the tests")
        let port = try LocalProcess.freePort()
        let node = try await LocalProcess.startAnswering(
            executable, ["serve", "--no-cache", "--allow-loopback-sources"], in: directory, log: log,
            environment: ["IMGPROXY_BIND": "127.0.0.1:\(port)"].merging(environment) { $1 },
            readyURL: "http://127.0.0.1:\(port)/health")
        var statuses: [UInt] = []
        var cacheControls: [String] = []
        for source in sources {
            let encoded = source.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? source
            let response = try await HTTPClient.shared.execute(
                HTTPClientRequest(url: "http://127.0.0.1:\(port)/insecure/rs:fit:20:20/plain/\(encoded)@png"),
                timeout: .seconds(30))
            statuses.append(response.status.code)
            cacheControls.append(response.headers.first(name: "cache-control") ?? "")
            _ = try await response.body.collect(upTo: 1 << 20)
        }
        node.stop()
        let text = (try? String(contentsOf: directory.appendingPathComponent("\(log).log"), encoding: .utf8)) ?? ""
        return (statuses, cacheControls.last ?? "", cacheControls, text)
    }

    @Test func theThreeStoresServeTheirBucketsWithImgproxysVariables() async throws {
        let fake = try await FakeCloudStore.start()
        defer { Task { await fake.stop() } }
        let png = try Fixtures.data("corpus/images/gen_alpha.png")
        fake.state.withLock {
            for name in [
                "gcs/images/a.png", "gcs/images/b.png", "gcs/other/a.png", "abs/photos/in/a.png",
                "abs/private/a.png", "swift/images/flowers/rose.png", "swift/secret/rose.png",
            ] {
                $0.objects[name] = png
            }
        }
        let directory = try LocalProcess.temporaryDirectory("imgproxy-cloud")
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = fake.serviceAccountKey()
        let result = try await Self.serve(
            [
                "IMGPROXY_USE_GCS": "true", "IMGPROXY_GCS_KEY": key,
                "IMGPROXY_GCS_ENDPOINT": fake.base + "/storage/v1/",
                "IMGPROXY_GCS_DENIED_BUCKETS": "other",
                "IMGPROXY_USE_ABS": "true", "IMGPROXY_ABS_NAME": FakeCloudStore.azureAccount,
                "IMGPROXY_ABS_KEY": FakeCloudStore.azureKey,
                "IMGPROXY_ABS_ENDPOINT": fake.base + "/" + FakeCloudStore.azureAccount,
                "IMGPROXY_ABS_ALLOWED_BUCKETS": "photos",
                "IMGPROXY_USE_SWIFT": "true", "IMGPROXY_SWIFT_USERNAME": FakeCloudStore.swiftUser,
                "IMGPROXY_SWIFT_API_KEY": FakeCloudStore.swiftKey, "IMGPROXY_SWIFT_AUTH_URL": fake.base + "/v3",
                "IMGPROXY_SWIFT_DOMAIN": "Default", "IMGPROXY_SWIFT_TENANT": "tenant",
                "IMGPROXY_SWIFT_DENIED_BUCKETS": "secret",
            ],
            sources: [
                "gs://images/a.png", "gs://images/b.png", "gs://images/none.png", "gs://other/a.png",
                "abs://photos/in/a.png", "abs://photos/none.png", "abs://private/a.png",
                "swift://images/flowers/rose.png", "swift://images/none.png", "swift://secret/rose.png",
            ], in: directory, log: "stores")
        #expect(result.statuses == [200, 200, 404, 404, 200, 404, 404, 200, 404, 404], "\(result.log)")
        // One token for both GCS images; one Swift sign-in, at start; nothing refused.
        #expect(fake.state.withLock { $0.tokenRequests } == 1)
        #expect(fake.state.withLock { $0.swiftSignIns } == 1)
        #expect(fake.state.withLock { $0.refusals }.isEmpty)
        #expect(!result.log.contains("not supported"), "\(result.log)")
        for secret in [FakeCloudStore.azureKey, FakeCloudStore.swiftKey, "PRIVATE KEY", "gtok-", "swift-1"] {
            #expect(!result.log.contains(secret), "\(result.log)")
        }
    }

    /// imgproxy's storage readers set `Cache-Control` from the object's (and Swift's `Expires` too, as every header
    /// of the object), so `IMGPROXY_CACHE_CONTROL_PASSTHROUGH` passes them on as an HTTP origin's.
    @Test func theObjectsCacheControlIsPassedOn() async throws {
        let fake = try await FakeCloudStore.start()
        defer { Task { await fake.stop() } }
        let png = try Fixtures.data("corpus/images/gen_alpha.png")
        let expires = AzureBlobClient.httpDate(Date().addingTimeInterval(7200))
        fake.state.withLock {
            for name in ["gcs/images/a.png", "abs/photos/a.png", "swift/images/a.png", "swift/images/b.png"] {
                $0.objects[name] = png
            }
            $0.objectHeaders["gcs/images/a.png"] = ["Cache-Control": "public, max-age=111"]
            $0.objectHeaders["abs/photos/a.png"] = ["Cache-Control": "private, max-age=222"]
            $0.objectHeaders["swift/images/a.png"] = ["Cache-Control": "max-age=333, immutable"]
            $0.objectHeaders["swift/images/b.png"] = ["Expires": expires]
        }
        let directory = try LocalProcess.temporaryDirectory("imgproxy-cloud-cache-control")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await Self.serve(
            [
                "IMGPROXY_CACHE_CONTROL_PASSTHROUGH": "true", "IMGPROXY_TTL": "99",
                "IMGPROXY_USE_GCS": "true", "IMGPROXY_GCS_KEY": fake.serviceAccountKey(),
                "IMGPROXY_GCS_ENDPOINT": fake.base + "/storage/v1/",
                "IMGPROXY_USE_ABS": "true", "IMGPROXY_ABS_NAME": FakeCloudStore.azureAccount,
                "IMGPROXY_ABS_KEY": FakeCloudStore.azureKey,
                "IMGPROXY_ABS_ENDPOINT": fake.base + "/" + FakeCloudStore.azureAccount,
                "IMGPROXY_USE_SWIFT": "true", "IMGPROXY_SWIFT_USERNAME": FakeCloudStore.swiftUser,
                "IMGPROXY_SWIFT_API_KEY": FakeCloudStore.swiftKey, "IMGPROXY_SWIFT_AUTH_URL": fake.base + "/auth/v1.0",
            ],
            sources: [
                "gs://images/a.png", "abs://photos/a.png", "swift://images/a.png", "swift://images/b.png",
                "gs://images/a.png",
            ], in: directory, log: "cache-control")
        #expect(result.statuses == [200, 200, 200, 200, 200], "\(result.log)")
        #expect(
            Array(result.cacheControls.prefix(3))
                == ["public, max-age=111", "private, max-age=222", "max-age=333, immutable"])
        let age = result.cacheControls[3].dropFirst("max-age=".count).prefix { $0.isNumber }
        #expect(result.cacheControls[3].hasPrefix("max-age=") && (7000...7200).contains(Int(age) ?? 0))
        // A repeated request, answered from the server's tiers, keeps the object's.
        #expect(result.cacheControls[4] == "public, max-age=111")
    }

    @Test func theSecretsVariablesReplaceTheEnvironmentsAndTheFileReplacesThem() async throws {
        let fake = try await FakeCloudStore.start()
        defer { Task { await fake.stop() } }
        let png = try Fixtures.data("corpus/images/gen_alpha.png")
        fake.state.withLock {
            $0.objects["gcs/images/a.png"] = png
            $0.secret = Data("IMGPROXY_TTL=77\nIMGPROXY_USE_GCS=true\n".utf8)
        }
        let directory = try LocalProcess.temporaryDirectory("imgproxy-gcp-secret")
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = [
            "IMGPROXY_ENV_GCP_SECRET_ID": "env", "IMGPROXY_ENV_GCP_SECRET_PROJECT_ID": "project",
            "IMGPROXY_ENV_GCP_KEY": fake.serviceAccountKey(),
            "WEBIMAGE_GCP_SECRET_MANAGER_ENDPOINT": fake.base + "/secretmanager",
            "IMGPROXY_GCS_KEY": fake.serviceAccountKey(), "IMGPROXY_GCS_ENDPOINT": fake.base + "/storage/v1/",
            "IMGPROXY_TTL": "10",
        ]
        let secret = try await Self.serve(environment, sources: ["gs://images/a.png"], in: directory, log: "secret")
        #expect(secret.statuses == [200], "\(secret.log)")
        #expect(secret.cacheControl.contains("max-age=77"), "\(secret.cacheControl)")
        // The env file's variables replace the secret's; the key from GOOGLE_APPLICATION_CREDENTIALS's file.
        let file = directory.appendingPathComponent("env")
        try Data("IMGPROXY_TTL=55\n".utf8).write(to: file)
        let keyFile = directory.appendingPathComponent("key.json")
        try Data(fake.serviceAccountKey().utf8).write(to: keyFile)
        var fileEnvironment = environment.merging(
            ["IMGPROXY_ENV_LOCAL_FILE_PATH": file.path, "GOOGLE_APPLICATION_CREDENTIALS": keyFile.path]) { $1 }
        fileEnvironment["IMGPROXY_ENV_GCP_KEY"] = nil
        let both = try await Self.serve(fileEnvironment, sources: ["gs://images/a.png"], in: directory, log: "file")
        #expect(both.statuses == [200], "\(both.log)")
        #expect(both.cacheControl.contains("max-age=55"), "\(both.cacheControl)")
    }

    @Test func unusableKeysAndRefusedSignInsStopTheStartWithExit64() async throws {
        let fake = try await FakeCloudStore.start()
        defer { Task { await fake.stop() } }
        let executable = try #require(Cluster.executable, "webimage was not built next to the tests")
        // Without credentials, the metadata server is asked: at a closed port on 127.0.0.1.
        let closed = try LocalProcess.freePort()
        let noMetadata = ["GCE_METADATA_HOST": "127.0.0.1:\(closed)", "HOME": "/nonexistent"]
        let cases: [([String: String], String)] = [
            (["IMGPROXY_USE_GCS": "1", "IMGPROXY_GCS_KEY": "{\"type\":\"authorized_user\"}"], "IMGPROXY_GCS_KEY"),
            (noMetadata.merging(["IMGPROXY_USE_GCS": "1"]) { $1 }, "no Google credentials"),
            (
                ["IMGPROXY_USE_GCS": "1", "GOOGLE_APPLICATION_CREDENTIALS": "/nonexistent/key.json"],
                "GOOGLE_APPLICATION_CREDENTIALS"
            ),
            (
                ["IMGPROXY_USE_ABS": "1", "IMGPROXY_ABS_NAME": "a", "AZURE_TENANT_ID": "../x", "AZURE_CLIENT_ID": "c"],
                "AZURE_TENANT_ID"
            ),
            (["IMGPROXY_USE_ABS": "1", "IMGPROXY_ABS_KEY": FakeCloudStore.azureKey], "IMGPROXY_ABS_NAME"),
            (
                ["IMGPROXY_USE_ABS": "1", "IMGPROXY_ABS_NAME": "a", "IMGPROXY_ABS_KEY": "not base64!"],
                "IMGPROXY_ABS_KEY"
            ),
            (
                [
                    "IMGPROXY_USE_SWIFT": "1", "IMGPROXY_SWIFT_USERNAME": FakeCloudStore.swiftUser,
                    "IMGPROXY_SWIFT_API_KEY": "wrong-key", "IMGPROXY_SWIFT_AUTH_URL": fake.base + "/auth/v1.0",
                ], "swift authentication failed"
            ),
            (
                ["IMGPROXY_USE_SWIFT": "1", "IMGPROXY_SWIFT_AUTH_URL": fake.base + "/auth"],
                "IMGPROXY_SWIFT_AUTH_VERSION"
            ),
            (
                [
                    "IMGPROXY_ENV_GCP_SECRET_ID": "missing", "IMGPROXY_ENV_GCP_KEY": fake.serviceAccountKey(),
                    "WEBIMAGE_GCP_SECRET_MANAGER_ENDPOINT": fake.base + "/secretmanager",
                ], "IMGPROXY_ENV_GCP_SECRET_ID"
            ),
            (
                noMetadata.merging([
                    "IMGPROXY_ENV_GCP_SECRET_ID": "env",
                    "WEBIMAGE_GCP_SECRET_MANAGER_ENDPOINT": fake.base + "/secretmanager",
                ]) { $1 }, "IMGPROXY_ENV_GCP_SECRET_ID"
            ),
        ]
        for (environment, mentions) in cases {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = ["serve", "--port", "0", "--no-cache"]
            process.environment = ["PATH": "/usr/bin:/bin"].merging(environment) { $1 }
            process.standardOutput = FileHandle.nullDevice
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let text = await Task.detached {
                String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            }.value
            process.waitUntilExit()
            #expect(process.terminationStatus == 64, "\(environment): \(text)")
            #expect(text.contains(mentions), "\(environment): \(text)")
            #expect(!text.contains("wrong-key") && !text.contains(FakeCloudStore.azureKey), "\(text)")
        }
    }
}
