import Crypto
import Foundation
import Testing
import WebImage
import WebImageTesting
import _CryptoExtras

@testable import WebImageStores

/// Google's application default credentials and Azure's default credential chain: the order in which they are found
/// (values only: the default metadata hosts are never reached), and each kind getting its tokens from a
/// ``FakeCloudStore`` on 127.0.0.1 and reading with them, one token shared by concurrent requests.
@Suite struct CloudCredentialChainTests {
    @Test func googleFindsTheVariablesFileThenGcloudsThenTheMetadataServer() throws {
        let home = try LocalProcess.temporaryDirectory("adc-home")
        defer { try? FileManager.default.removeItem(at: home) }
        let named = home.appendingPathComponent("named.json")
        try Data(
            #"{"type":"authorized_user","client_id":"a","client_secret":"b","refresh_token":"c"}"#.utf8
        ).write(to: named)
        // Nothing: the metadata server, at GCE_METADATA_HOST when set.
        let metadata = try GoogleCredentials.applicationDefault(environment: [:], home: home.path)
        #expect(metadata.credentials.isMetadataServer && "\(metadata.credentials)" == "metadata server 169.254.169.254")
        let moved = try GoogleCredentials.applicationDefault(
            environment: ["GCE_METADATA_HOST": "127.0.0.1:8080"], home: home.path)
        #expect("\(moved.credentials)" == "metadata server 127.0.0.1:8080")
        // gcloud's file under the home directory comes before it; the variable's file before both.
        let gcloud = home.appendingPathComponent(GoogleCredentials.wellKnownFile)
        try FileManager.default.createDirectory(
            at: gcloud.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(
            #"{"type":"authorized_user","client_id":"gcloud-user","client_secret":"s","refresh_token":"r"}"#.utf8
        ).write(to: gcloud)
        let found = try GoogleCredentials.applicationDefault(environment: [:], home: home.path)
        #expect(found.origin == gcloud.path && "\(found.credentials)" == "authorized user (client gcloud-user)")
        let variable = try GoogleCredentials.applicationDefault(
            environment: ["GOOGLE_APPLICATION_CREDENTIALS": named.path], home: home.path)
        #expect(variable.origin == "GOOGLE_APPLICATION_CREDENTIALS" && "\(variable.credentials)".contains("(client a)"))
        // A named file that cannot be used is an error, never a fall-through to the next source.
        for text in [#"{"type":"authorized_user","client_id":"a"}"#, #"{"type":"external_account"}"#, "nope"] {
            try Data(text.utf8).write(to: named)
            #expect(throws: CloudStoreError.self) {
                try GoogleCredentials.applicationDefault(
                    environment: ["GOOGLE_APPLICATION_CREDENTIALS": named.path], home: home.path)
            }
        }
        #expect(throws: CloudStoreError.self) {
            try GoogleCredentials.applicationDefault(
                environment: ["GOOGLE_APPLICATION_CREDENTIALS": home.appendingPathComponent("none").path], home: nil)
        }
    }

    @Test func azureFindsTheEnvironmentThenAWorkloadIdentityThenAManagedIdentity() throws {
        let ids = ["AZURE_TENANT_ID": "t-1", "AZURE_CLIENT_ID": "c-1"]
        func chain(_ environment: [String: String]) throws -> String {
            let found = try AzureCredentials.defaultChain(environment: environment)
            return "\(found.credentials) from \(found.origin)"
        }
        #expect(
            try chain(ids.merging(["AZURE_CLIENT_SECRET": "s", "AZURE_FEDERATED_TOKEN_FILE": "/f"]) { $1 })
                == "client secret of c-1 in tenant t-1 from AZURE_CLIENT_SECRET")
        #expect(
            try chain(ids.merging(["AZURE_FEDERATED_TOKEN_FILE": "/f", "IDENTITY_ENDPOINT": "http://x/"]) { $1 })
                == "workload identity c-1 in tenant t-1 from AZURE_FEDERATED_TOKEN_FILE")
        #expect(
            try chain(["IDENTITY_ENDPOINT": "http://127.0.0.1:9/msi/token", "IDENTITY_HEADER": "h"])
                == "managed identity of 127.0.0.1, else the Azure CLI, else the Azure Developer CLI"
                + " from IDENTITY_ENDPOINT")
        // Without them, IMDS at azidentity's address (a value here: never reached), for AZURE_CLIENT_ID when set.
        let imds = try AzureCredentials.defaultChain(environment: ["AZURE_CLIENT_ID": "c-1"])
        #expect(
            imds.credentials.isInstanceMetadata
                && "\(imds.credentials)"
                    == "managed identity c-1 of IMDS 169.254.169.254, else the Azure CLI, else the Azure Developer CLI"
        )
        #expect(
            AzureCredentials.defaultInstanceMetadataEndpoint.absoluteString
                == "http://169.254.169.254/metadata/identity/oauth2/token")
        #expect(AzureCredentials.defaultAuthorityHost.absoluteString == "https://login.microsoftonline.com/")
        for bad in [
            ids.merging(["AZURE_TENANT_ID": "../evil", "AZURE_CLIENT_SECRET": "s"]) { $1 },
            ids.merging(["AZURE_CLIENT_SECRET": "s", "AZURE_AUTHORITY_HOST": "ftp://x/"]) { $1 },
            ids.merging(["AZURE_CLIENT_CERTIFICATE_PATH": "/nonexistent/cert.pem"]) { $1 },
            ["IDENTITY_ENDPOINT": "file:///etc/passwd", "IDENTITY_HEADER": "h"],
        ] {
            #expect(throws: CloudStoreError.self, "\(bad)") { try AzureCredentials.defaultChain(environment: bad) }
        }
    }

    @Test func googlesMetadataServerAndARefreshTokenReadObjectsWithOneTokenEach() async throws {
        let fake = try await FakeCloudStore.start()
        defer { Task { await fake.stop() } }
        let png = try Fixtures.data("corpus/images/gen_alpha.png")
        fake.state.withLock { $0.objects["gcs/images/a.png"] = png }
        let endpoint = try #require(URL(string: fake.base + "/storage/v1/"))
        let host = "127.0.0.1:\(fake.port)"
        let user = try GoogleCredentials(json: fake.authorizedUserKey())
        for credentials in [GoogleCredentials.metadataServer(host: host), user] {
            let client = GCSClient(endpoint: endpoint, credentials: credentials, timeout: .seconds(10))
            let before = fake.state.withLock { $0.identityRequests.count }
            #expect(await client.probeCredentials())
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        try await client.object(bucket: "images", key: "a.png", query: nil, maxSize: 1 << 20)?.data
                            .count ?? 0
                    }
                }
                for try await count in group { #expect(count == png.count) }
            }
            // The probe's token, then one shared by the six reads.
            #expect(fake.state.withLock { $0.identityRequests.count } == before + 2, "\(credentials)")
            try await client.shutdown()
        }
        #expect(fake.state.withLock { $0.identityRequests } == ["gce", "gce", "refresh", "refresh"])
        #expect(fake.state.withLock { $0.refusals }.isEmpty)
    }

    @Test func eachAzureCredentialGetsATokenThatReadsTheBlob() async throws {
        let fake = try await FakeCloudStore.start()
        defer { Task { await fake.stop() } }
        let png = try Fixtures.data("corpus/images/gen_alpha.png")
        fake.state.withLock { $0.objects["abs/photos/a.png"] = png }
        let directory = try LocalProcess.temporaryDirectory("azure-chain")
        defer { try? FileManager.default.removeItem(at: directory) }
        let tokenFile = directory.appendingPathComponent("federated")
        try Data((FakeCloudStore.federatedToken + "\n").utf8).write(to: tokenFile)
        let certificate = try Self.certificate(in: directory, fake: fake)
        let ids = [
            "AZURE_TENANT_ID": FakeCloudStore.azureTenant, "AZURE_CLIENT_ID": FakeCloudStore.azureClientID,
            "AZURE_AUTHORITY_HOST": fake.base + "/aad/",
        ]
        let environments: [([String: String], String)] = [
            (ids.merging(["AZURE_CLIENT_SECRET": FakeCloudStore.azureClientSecret]) { $1 }, "secret"),
            (ids.merging(["AZURE_CLIENT_CERTIFICATE_PATH": certificate.path]) { $1 }, "certificate"),
            (
                ids.merging([
                    "AZURE_CLIENT_CERTIFICATE_PATH": certificate.path, "AZURE_CLIENT_CERTIFICATE_CHAIN": "true",
                ]) { $1 }, "certificate+chain"
            ),
            (ids.merging(["AZURE_FEDERATED_TOKEN_FILE": tokenFile.path]) { $1 }, "workload"),
            (
                ["IDENTITY_ENDPOINT": fake.base + "/msi/token", "IDENTITY_HEADER": FakeCloudStore.identityHeader],
                "appservice"
            ),
            (["AZURE_CLIENT_ID": "user-assigned"], "imds:user-assigned"),
        ]
        let endpoint = try #require(URL(string: fake.base + "/" + FakeCloudStore.azureAccount))
        let imds = try #require(URL(string: fake.base + "/metadata/identity/oauth2/token"))
        for (environment, kind) in environments {
            let credentials = try AzureCredentials.defaultChain(environment: environment, imdsEndpoint: imds)
                .credentials
            let client = AzureBlobClient(endpoint: endpoint, credentials: credentials, timeout: .seconds(10))
            for _ in 0..<2 {
                let object = try await client.object(bucket: "photos", key: "a.png", query: nil, maxSize: 1 << 20)
                #expect(object?.data == png, "\(kind)")
            }
            #expect(fake.state.withLock { $0.identityRequests.last } == kind)
            try await client.shutdown()
        }
        // One token per credential for its two reads; nothing refused.
        #expect(fake.state.withLock { $0.identityRequests } == environments.map(\.1))
        #expect(fake.state.withLock { $0.refusals }.isEmpty)
    }

    /// IMDS that gives no token at start (here a closed port on 127.0.0.1) leaves the client anonymous: a public
    /// container is read, a private one refused with the store's status.
    @Test func withoutAManagedIdentityAzureRequestsAreAnonymous() async throws {
        let fake = try await FakeCloudStore.start()
        defer { Task { await fake.stop() } }
        fake.state.withLock {
            $0.objects["abs/photos/a.png"] = Data([1, 2, 3])
            $0.azureAnonymous = true
        }
        let closed = try LocalProcess.freePort()
        let imds = try #require(URL(string: "http://127.0.0.1:\(closed)/metadata/identity/oauth2/token"))
        let credentials = try AzureCredentials.defaultChain(environment: [:], imdsEndpoint: imds).credentials
        let endpoint = try #require(URL(string: fake.base + "/" + FakeCloudStore.azureAccount))
        let client = AzureBlobClient(endpoint: endpoint, credentials: credentials, timeout: .seconds(10))
        #expect(await !client.probeCredentials())
        let object = try await client.object(bucket: "photos", key: "a.png", query: nil, maxSize: 1 << 20)
        #expect(object?.data == Data([1, 2, 3]))
        fake.state.withLock { $0.azureAnonymous = false }
        await #expect(throws: WebImageError.self) {
            try await client.object(bucket: "photos", key: "a.png", query: nil, maxSize: 1 << 20)
        }
        try await client.shutdown()
    }

    /// A PEM file with a self-signed certificate (made by `openssl`) and its RSA key, whose public key and
    /// thumbprint the fake checks assertions with.
    static func certificate(in directory: URL, fake: FakeCloudStore) throws -> URL {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let keyFile = directory.appendingPathComponent("key.pem")
        let certificateFile = directory.appendingPathComponent("certificate.pem")
        try Data(key.pemRepresentation.utf8).write(to: keyFile)
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = [
            "req", "-new", "-x509", "-key", keyFile.path, "-subj", "/CN=webimage-test", "-days", "2", "-out",
            certificateFile.path,
        ]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        let certificate = try String(contentsOf: certificateFile, encoding: .utf8)
        let body = certificate.components(separatedBy: "-----")[2].filter { !$0.isWhitespace }
        let der = try #require(Data(base64Encoded: body))
        fake.state.withLock {
            $0.certificateKey = key.publicKey.derRepresentation
            $0.certificateThumbprint = GoogleServiceAccount.base64URL(Data(Insecure.SHA1.hash(data: der)))
        }
        let combined = directory.appendingPathComponent("combined.pem")
        try Data((certificate + key.pemRepresentation).utf8).write(to: combined)
        return combined
    }
}
