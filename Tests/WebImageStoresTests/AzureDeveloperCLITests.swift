import Foundation
import Testing
import WebImage
import WebImageTesting

@testable import WebImageStores

/// The developer tools at the end of Azure's default chain: fake `az` and `azd` scripts on a `PATH` of the test's
/// own, IMDS at a closed port on 127.0.0.1 (or the fake's), the token read from their output and accepted by
/// ``FakeCloudStore``'s blob endpoint.
@Suite struct AzureDeveloperCLITests {
    /// A directory with `tools` as scripts (name → body); each appends its arguments to `NAME.args`.
    static func tools(_ tools: [String: String], in directory: URL) throws {
        for (name, body) in tools {
            let script = directory.appendingPathComponent(name)
            let log = directory.appendingPathComponent("\(name).args").path
            try Data("#!/bin/sh\necho \"$@\" >> \(log)\n\(body)\n".utf8).write(to: script)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        }
    }

    static let azOutput =
        #"echo '{"accessToken":"az-token","expiresOn":"2099-01-01 00:00:00.000000","expires_on":4070908800}'"#
    static let azdOutput = #"echo '{"token":"azd-token","expiresOn":"2099-01-01T00:00:00Z"}'"#

    /// Reads `abs/photos/a.png` with the chain of `environment` (IMDS at `imds`) and returns what gave the token,
    /// `nil` when nothing did (the reads are then anonymous).
    static func read(
        _ environment: [String: String], fake: FakeCloudStore, imds: URL
    ) async throws -> String? {
        let credentials = try AzureCredentials.defaultChain(environment: environment, imdsEndpoint: imds).credentials
        let endpoint = try #require(URL(string: fake.base + "/" + FakeCloudStore.azureAccount))
        let client = AzureBlobClient(endpoint: endpoint, credentials: credentials, timeout: .seconds(30))
        let probed = await client.probeCredentials()
        let object = try? await client.object(bucket: "photos", key: "a.png", query: nil, maxSize: 1 << 20)
        #expect(!probed || object?.data == Data([1, 2, 3]))
        try await client.shutdown()
        return probed ? credentials.tokenSource : nil
    }

    @Test func withoutAManagedIdentityTheAzureCLIThenTheDeveloperCLIGiveTheToken() async throws {
        let fake = try await FakeCloudStore.start()
        defer { Task { await fake.stop() } }
        fake.state.withLock {
            $0.objects["abs/photos/a.png"] = Data([1, 2, 3])
            $0.issued.formUnion(["az-token", "azd-token"])
        }
        let directory = try LocalProcess.temporaryDirectory("azure-tools")
        defer { try? FileManager.default.removeItem(at: directory) }
        let closed = try #require(
            URL(string: "http://127.0.0.1:\(try LocalProcess.freePort())/metadata/identity/oauth2/token"))
        let environment = ["PATH": directory.path + ":/usr/bin:/bin"]
        func arguments(_ tool: String) -> [String] {
            let text = try? String(contentsOf: directory.appendingPathComponent("\(tool).args"), encoding: .utf8)
            return (text ?? "").split(separator: "\n").map(String.init)
        }
        // Neither installed: no token, requests anonymous.
        #expect(try await Self.read(environment, fake: fake, imds: closed) == nil)
        // azd alone.
        try Self.tools(["azd": Self.azdOutput], in: directory)
        #expect(try await Self.read(environment, fake: fake, imds: closed) == "the Azure Developer CLI")
        // Asked at the probe and once more for the token cache, as the metadata servers are.
        #expect(
            arguments("azd")
                == Array(
                    repeating: "auth token --output json --no-prompt --scope https://storage.azure.com/.default",
                    count: 2))
        // az comes first; when it is not signed in (exit 1), azd.
        try Self.tools(["az": Self.azOutput], in: directory)
        #expect(try await Self.read(environment, fake: fake, imds: closed) == "the Azure CLI")
        #expect(
            arguments("az")
                == Array(
                    repeating: "account get-access-token --output json --resource https://storage.azure.com", count: 2))
        try Self.tools(["az": "echo \"ERROR: Please run 'az login' to setup account.\" >&2; exit 1"], in: directory)
        #expect(try await Self.read(environment, fake: fake, imds: closed) == "the Azure Developer CLI")
        // Output without a token is no token.
        try Self.tools(["az": "echo '{}'", "azd": "echo 'nope'"], in: directory)
        #expect(try await Self.read(environment, fake: fake, imds: closed) == nil)
        #expect(fake.state.withLock { $0.identityRequests }.isEmpty)
    }

    @Test func azureTokenCredentialsNarrowsTheChain() async throws {
        let fake = try await FakeCloudStore.start()
        defer { Task { await fake.stop() } }
        fake.state.withLock {
            $0.objects["abs/photos/a.png"] = Data([1, 2, 3])
            $0.issued.formUnion(["az-token", "azd-token"])
        }
        let directory = try LocalProcess.temporaryDirectory("azure-selection")
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.tools(["az": Self.azOutput, "azd": Self.azdOutput], in: directory)
        let imds = try #require(URL(string: fake.base + "/metadata/identity/oauth2/token"))
        let path = ["PATH": directory.path + ":/usr/bin:/bin"]
        func with(_ value: String) -> [String: String] { path.merging(["AZURE_TOKEN_CREDENTIALS": value]) { $1 } }
        #expect(try await Self.read(path, fake: fake, imds: imds) == "managed identity of IMDS 127.0.0.1")
        #expect(try await Self.read(with("dev"), fake: fake, imds: imds) == "the Azure CLI")
        #expect(
            try await Self.read(with("AzureDeveloperCLICredential"), fake: fake, imds: imds)
                == "the Azure Developer CLI")
        let production = try AzureCredentials.defaultChain(environment: with("prod"), imdsEndpoint: imds).credentials
        #expect("\(production)" == "managed identity of IMDS 127.0.0.1")
        let chain = try AzureCredentials.defaultChain(environment: path, imdsEndpoint: imds).credentials
        #expect("\(chain)" == "managed identity of IMDS 127.0.0.1, else the Azure CLI, else the Azure Developer CLI")
        for bad in ["bogus", "EnvironmentCredential", "WorkloadIdentityCredential"] {
            #expect(throws: CloudStoreError.self, "\(bad)") {
                try AzureCredentials.defaultChain(environment: with(bad), imdsEndpoint: imds)
            }
        }
    }

    @Test func aToolThatHangsIsKilledAndTheNextIsAsked() async throws {
        let fake = try await FakeCloudStore.start()
        defer { Task { await fake.stop() } }
        fake.state.withLock {
            $0.objects["abs/photos/a.png"] = Data([1, 2, 3])
            $0.issued.insert("azd-token")
        }
        let directory = try LocalProcess.temporaryDirectory("azure-hang")
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.tools(["az": "exec sleep 600", "azd": Self.azdOutput], in: directory)
        let closed = try #require(URL(string: "http://127.0.0.1:\(try LocalProcess.freePort())/token"))
        let environment = ["PATH": directory.path + ":/usr/bin:/bin", "AZURE_TOKEN_CREDENTIALS": "dev"]
        #expect(try await Self.read(environment, fake: fake, imds: closed) == "the Azure Developer CLI")
    }

    @Test func theExpiryIsReadInEachOfItsForms() throws {
        let epoch = try #require(AzureDeveloperCLI.expiry(["expires_on": 4_070_908_800, "expiresOn": "junk"]))
        #expect(epoch.timeIntervalSince1970 == 4_070_908_800)
        let rfc = try #require(AzureDeveloperCLI.expiry(["expiresOn": "2099-01-01T00:00:00Z"]))
        #expect(rfc.timeIntervalSince1970 == 4_070_908_800)
        let local = try #require(AzureDeveloperCLI.expiry(["expiresOn": "2099-01-01 00:00:00.000000"]))
        #expect(local.timeIntervalSince1970 == 4_070_908_800 - Double(TimeZone.current.secondsFromGMT(for: local)))
        #expect(AzureDeveloperCLI.expiry(["expiresOn": "tomorrow"]) == nil)
        #expect(AzureDeveloperCLI.expiry([:]) == nil)
    }
}
