import Foundation
import Testing
import WebImage
import WebImageTesting

/// `webimage serve` with `gs://` and `abs://` sources and no key, finding credentials as imgproxy's SDKs find them:
/// GCE's metadata server (`GCE_METADATA_HOST`), gcloud's file in the home directory, workload identity federation,
/// Azure's service principal (`AZURE_*`), its managed identity (IMDS), the Azure CLI, and, with none, anonymous
/// Azure requests. Every credential source is a
/// ``FakeCloudStore`` on 127.0.0.1, or a closed port there: nothing is sent beyond the loopback interface.
@Suite(.serialized) struct ServeCloudCredentialsTests {
    static let sources = ["gs://images/a.png", "gs://images/a.png", "abs://photos/a.png", "abs://photos/a.png"]

    static func start() async throws -> FakeCloudStore {
        let fake = try await FakeCloudStore.start()
        let png = try Fixtures.data("corpus/images/gen_alpha.png")
        fake.state.withLock {
            $0.objects["gcs/images/a.png"] = png
            $0.objects["abs/photos/a.png"] = png
        }
        return fake
    }

    /// The variables of GCS and Azure sources at `fake` without keys, with `HOME` at `home`.
    static func stores(_ fake: FakeCloudStore, home: URL) -> [String: String] {
        [
            "HOME": home.path, "IMGPROXY_USE_GCS": "true", "IMGPROXY_GCS_ENDPOINT": fake.base + "/storage/v1/",
            "IMGPROXY_USE_ABS": "true", "IMGPROXY_ABS_NAME": FakeCloudStore.azureAccount,
            "IMGPROXY_ABS_ENDPOINT": fake.base + "/" + FakeCloudStore.azureAccount,
        ]
    }

    @Test func theMetadataServersGiveTheTokens() async throws {
        let fake = try await Self.start()
        defer { Task { await fake.stop() } }
        let directory = try LocalProcess.temporaryDirectory("serve-metadata")
        defer { try? FileManager.default.removeItem(at: directory) }
        var environment = Self.stores(fake, home: directory)
        environment["GCE_METADATA_HOST"] = "127.0.0.1:\(fake.port)"
        environment["AZURE_POD_IDENTITY_AUTHORITY_HOST"] = fake.base
        let result = try await ImgproxyCloudSourcesTests.serve(
            environment, sources: Self.sources, in: directory, log: "metadata")
        #expect(result.statuses == [200, 200, 200, 200], "\(result.log)")
        // Each asked at start, then once for the two requests.
        #expect(fake.state.withLock { $0.identityRequests.sorted() } == ["gce", "gce", "imds", "imds"])
        #expect(fake.state.withLock { $0.refusals }.isEmpty)
        #expect(result.log.contains("metadata server 127.0.0.1:\(fake.port)"), "\(result.log)")
        #expect(!result.log.contains("idtok-"), "\(result.log)")
    }

    @Test func gcloudsFileAndAServicePrincipalGiveTheTokens() async throws {
        let fake = try await Self.start()
        defer { Task { await fake.stop() } }
        let directory = try LocalProcess.temporaryDirectory("serve-principal")
        defer { try? FileManager.default.removeItem(at: directory) }
        let gcloud = directory.appendingPathComponent(".config/gcloud/application_default_credentials.json")
        try FileManager.default.createDirectory(
            at: gcloud.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(fake.authorizedUserKey().utf8).write(to: gcloud)
        var environment = Self.stores(fake, home: directory)
        environment["AZURE_TENANT_ID"] = FakeCloudStore.azureTenant
        environment["AZURE_CLIENT_ID"] = FakeCloudStore.azureClientID
        environment["AZURE_CLIENT_SECRET"] = FakeCloudStore.azureClientSecret
        environment["AZURE_AUTHORITY_HOST"] = fake.base + "/aad/"
        let result = try await ImgproxyCloudSourcesTests.serve(
            environment, sources: Self.sources, in: directory, log: "principal")
        #expect(result.statuses == [200, 200, 200, 200], "\(result.log)")
        #expect(fake.state.withLock { $0.identityRequests.sorted() } == ["refresh", "secret"])
        #expect(result.log.contains(gcloud.path) && result.log.contains("AZURE_CLIENT_SECRET"), "\(result.log)")
        for secret in [FakeCloudStore.azureClientSecret, "refresh-1", "gsecret"] {
            #expect(!result.log.contains(secret), "\(result.log)")
        }
    }

    /// Workload identity federation (an `external_account` file impersonating a service account) for GCS, and the
    /// Azure CLI (a fake `az` on the server's `PATH`) when IMDS gives no token.
    @Test func federationAndTheAzureCLIGiveTheTokens() async throws {
        let fake = try await Self.start()
        defer { Task { await fake.stop() } }
        fake.state.withLock { _ = $0.issued.insert("az-token") }
        let directory = try LocalProcess.temporaryDirectory("serve-federation")
        defer { try? FileManager.default.removeItem(at: directory) }
        let subject = directory.appendingPathComponent("subject")
        try Data(FakeCloudStore.subjectToken.utf8).write(to: subject)
        let file = directory.appendingPathComponent("federation.json")
        try Data(fake.externalAccount(source: ["file": subject.path], impersonate: true).utf8).write(to: file)
        let tools = directory.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
        try AzureDeveloperCLITests.tools(["az": AzureDeveloperCLITests.azOutput], in: tools)
        var environment = Self.stores(fake, home: directory)
        environment["GOOGLE_APPLICATION_CREDENTIALS"] = file.path
        environment["AZURE_POD_IDENTITY_AUTHORITY_HOST"] = "http://127.0.0.1:\(try LocalProcess.freePort())/"
        environment["PATH"] = tools.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let result = try await ImgproxyCloudSourcesTests.serve(
            environment, sources: Self.sources, in: directory, log: "federation")
        #expect(result.statuses == [200, 200, 200, 200], "\(result.log)")
        // One exchange and one impersonation for the two GCS requests.
        #expect(fake.state.withLock { $0.identityRequests } == ["sts:jwt+cloud-platform", "impersonated"])
        #expect(fake.state.withLock { $0.refusals }.isEmpty)
        #expect(result.log.contains("as \(FakeCloudStore.impersonatedAccount)"), "\(result.log)")
        #expect(result.log.contains("Azure Blob Storage: tokens from the Azure CLI"), "\(result.log)")
        #expect(!result.log.contains(FakeCloudStore.subjectToken) && !result.log.contains("az-token"), "\(result.log)")
    }

    /// Without credentials anywhere (the metadata servers at closed ports), Azure requests are anonymous, and so are
    /// GCS requests to an endpoint of one's own; with Google's endpoint the start stops (exit 64), as imgproxy's.
    @Test func withoutCredentialsRequestsAreAnonymousOrTheStartStops() async throws {
        let fake = try await Self.start()
        defer { Task { await fake.stop() } }
        fake.state.withLock {
            $0.azureAnonymous = true
            $0.gcsAnonymous = true
        }
        let directory = try LocalProcess.temporaryDirectory("serve-anonymous")
        defer { try? FileManager.default.removeItem(at: directory) }
        let closed = try LocalProcess.freePort()
        var environment = Self.stores(fake, home: directory)
        environment["GCE_METADATA_HOST"] = "127.0.0.1:\(closed)"
        environment["AZURE_POD_IDENTITY_AUTHORITY_HOST"] = "http://127.0.0.1:\(closed)"
        let result = try await ImgproxyCloudSourcesTests.serve(
            environment, sources: Self.sources, in: directory, log: "anonymous")
        #expect(result.statuses == [200, 200, 200, 200], "\(result.log)")
        #expect(result.log.contains("Azure Blob Storage: no credentials"), "\(result.log)")
        #expect(result.log.contains("GCS: no credentials"), "\(result.log)")
        #expect(fake.state.withLock { $0.identityRequests }.isEmpty)

        let executable = try #require(Cluster.executable, "webimage was not built next to the tests")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["serve", "--port", "0", "--no-cache"]
        process.environment = [
            "PATH": "/usr/bin:/bin", "HOME": directory.path, "IMGPROXY_USE_GCS": "true",
            "GCE_METADATA_HOST": "127.0.0.1:\(closed)",
        ]
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let text = await Task.detached {
            String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        }.value
        process.waitUntilExit()
        #expect(process.terminationStatus == 64, "\(text)")
        #expect(text.contains("IMGPROXY_USE_GCS: no Google credentials"), "\(text)")
    }
}
