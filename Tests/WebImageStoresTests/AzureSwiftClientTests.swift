import Foundation
import Testing
import WebImage

@testable import WebImageStores

/// ``AzureBlobClient`` (Shared Key, checked by the fake's own computation from the request as received) and
/// ``SwiftClient`` (v1, v2 and v3 sign-in, a new sign-in on a 401) against ``FakeCloudStore``.
@Suite struct AzureSwiftClientTests {
    @Test func azureSharedKeyReadsBlobsAndAWrongKeyIsRefused() async throws {
        let fake = try await FakeCloudStore.start()
        fake.state.withLock { $0.objects["abs/photos/in/a b+c.png"] = Data("blob".utf8) }
        let endpoint = try #require(URL(string: fake.base + "/" + FakeCloudStore.azureAccount))
        let signer = try AzureSharedKey(account: FakeCloudStore.azureAccount, key: FakeCloudStore.azureKey)
        let client = AzureBlobClient(endpoint: endpoint, signer: signer, timeout: .seconds(10))
        let blob = try await client.object(bucket: "photos", key: "in/a b+c.png", query: nil, maxSize: 100)
        #expect(blob?.data == Data("blob".utf8))
        #expect(blob?.etag == "\"0x8D\"")
        #expect(blob?.lastModified == FakeCloudStore.lastModified)
        #expect(try await client.object(bucket: "photos", key: "none.png", query: nil, maxSize: 100) == nil)
        #expect(fake.state.withLock { $0.refusals["abs"] } == nil)
        try await client.shutdown()

        let wrongKey = Data(repeating: 9, count: 32).base64EncodedString()
        let wrong = AzureBlobClient(
            endpoint: endpoint, signer: try AzureSharedKey(account: FakeCloudStore.azureAccount, key: wrongKey),
            timeout: .seconds(10))
        do {
            _ = try await wrong.object(bucket: "photos", key: "in/a b+c.png", query: nil, maxSize: 100)
            Issue.record("a wrong key read a blob")
        } catch {
            #expect(error.httpStatus == 403)
            #expect(error.message.contains("AuthenticationFailed"))
            #expect(!error.message.contains(wrongKey))
        }
        try await wrong.shutdown()
        await fake.stop()
    }

    /// Microsoft's example of a string to sign ("Authorize with Shared Key", Get Container Metadata).
    @Test func theStringToSignIsMicrosoftsExample() throws {
        let signer = try AzureSharedKey(account: "myaccount", key: Data("key".utf8).base64EncodedString())
        let text = signer.stringToSign(
            method: "get", path: "/mycontainer",
            query: [("timeout", "20"), ("comp", "metadata"), ("Restype", "container")],
            headers: [("x-ms-version", "2015-02-21"), ("X-Ms-Date", "Fri, 26 Jun 2015 23:39:12 GMT")])
        #expect(
            text == "GET\n\n\n\n\n\n\n\n\n\n\n\nx-ms-date:Fri, 26 Jun 2015 23:39:12 GMT\nx-ms-version:2015-02-21\n"
                + "/myaccount/mycontainer\ncomp:metadata\nrestype:container\ntimeout:20")
        #expect(throws: CloudStoreError.self) { try AzureSharedKey(account: "a", key: "not base64!") }
    }

    /// Signatures of requests the .NET storage library made, from Microsoft's own tests of them (Microsoft/dash,
    /// `SignatureValidationTests.SharedKeySignatureTest`, account `dashstorage1`).
    @Test(arguments: 0..<3)
    func sharedKeySignaturesMatchMicrosoftsTestVectors(index: Int) throws {
        let vector = SharedKeyVector.microsoft[index]
        let signer = try AzureSharedKey(
            account: "dashstorage1",
            key: "8jqRVtXUWiEthgIhR+dFwrB8gh3lFuquvJQ1v4eabObIj7okI1cZIuzY8zZHmEdpcC0f+XlUkbFwAhjTfyrLIg==")
        let authorization = signer.authorization(
            method: vector.method, path: vector.path, query: vector.query, headers: vector.headers)
        #expect(authorization == "SharedKey dashstorage1:" + vector.signature)
    }

    @Test(arguments: [("/auth/v1.0", 0), ("/v2.0", 0), ("/v3", 0), ("/auth/v1.0", 1), ("/identity", 3)])
    func swiftSignsInReadsObjectsAndSignsInAgainOnce(authPath: String, version: Int) async throws {
        let fake = try await FakeCloudStore.start()
        fake.state.withLock { $0.objects["swift/images/flowers/rose.png"] = Data("rose".utf8) }
        let authURL = try #require(URL(string: fake.base + (authPath == "/identity" ? "/v3" : authPath)))
        let authentication = try SwiftAuthentication(
            username: FakeCloudStore.swiftUser, apiKey: FakeCloudStore.swiftKey, authURL: authURL, domain: "Default",
            tenant: "tenant", version: version)
        #expect(!"\(authentication)".contains(FakeCloudStore.swiftKey))
        let client = SwiftClient(authentication: authentication, connectTimeout: .seconds(5), timeout: .seconds(10))
        try await client.authenticate()
        let rose = try await client.object(bucket: "images", key: "flowers/rose.png", query: nil, maxSize: 100)
        #expect(rose?.data == Data("rose".utf8))
        #expect(rose?.etag == "\"swift-etag\"")
        #expect(try await client.object(bucket: "images", key: "none.png", query: nil, maxSize: 100) == nil)
        #expect(fake.state.withLock { $0.swiftSignIns } == 1)
        // An expired token: one new sign-in, then the object.
        fake.expireTokens()
        #expect(try await client.object(bucket: "images", key: "flowers/rose.png", query: nil, maxSize: 100) != nil)
        #expect(fake.state.withLock { $0.swiftSignIns } == 2)
        try await client.shutdown()
        await fake.stop()
    }

    @Test func swiftWrongKeyAndUnknownVersionAreTypedErrors() async throws {
        let fake = try await FakeCloudStore.start()
        let authentication = try SwiftAuthentication(
            username: FakeCloudStore.swiftUser, apiKey: "wrong",
            authURL: try #require(URL(string: fake.base + "/auth/v1.0")))
        let client = SwiftClient(authentication: authentication, connectTimeout: .seconds(5), timeout: .seconds(10))
        do {
            try await client.authenticate()
            Issue.record("a wrong key signed in")
        } catch {
            #expect(error.httpStatus == 401)
            #expect(error.underlying is CloudStoreError)
            #expect(!error.message.contains("wrong"))
        }
        try await client.shutdown()
        await fake.stop()
        #expect(throws: CloudStoreError.self) {
            try SwiftAuthentication(username: "u", apiKey: "k", authURL: URL(string: "http://127.0.0.1/auth")!)
        }
        #expect(throws: CloudStoreError.self) {
            try SwiftAuthentication(
                username: "u", apiKey: "k", authURL: URL(string: "http://127.0.0.1/v1")!, version: 4)
        }
    }

    @Test func secretManagerReadsTheSecretsPayloadWithAToken() async throws {
        let fake = try await FakeCloudStore.start()
        fake.state.withLock { $0.secret = Data("IMGPROXY_TTL=77\n".utf8) }
        let manager = GCPSecretManager(
            endpoint: try #require(URL(string: fake.base + "/secretmanager")),
            account: try GoogleServiceAccount(json: fake.serviceAccountKey()))
        let data = try await manager.access(project: "project", secret: "env", version: "latest")
        #expect(data == Data("IMGPROXY_TTL=77\n".utf8))
        await #expect(throws: CloudStoreError.self) {
            _ = try await manager.access(project: "project", secret: "other", version: "latest")
        }
        await fake.stop()
    }
}

/// A request and its Shared Key signature.
struct SharedKeyVector: Sendable {
    var method: String
    var path: String
    var query: [(String, String)] = []
    var headers: [(String, String)]
    var signature: String

    static let microsoft: [SharedKeyVector] = [
        SharedKeyVector(
            method: "PUT", path: "/test/test.txt",
            headers: [
                ("Content-Length", "423"), ("Content-MD5", "LHmMkMS8mTXh0bRP4e4Ptw=="), ("x-ms-blob-type", "BlockBlob"),
                ("x-ms-client-request-id", "TestRequest1"), ("x-ms-date", "Thu, 30 Oct 2014 19:48:43 GMT"),
                ("x-ms-version", "2014-02-14"), ("x-ms-test", "testvalue"), ("x-test", "differentvalue"),
            ], signature: "ktMmzuta7Wsqtzyd3TBbd3zW4miedtJPkWWlW9DCRb0="),
        SharedKeyVector(
            method: "PUT", path: "/test/test.txt",
            headers: [
                ("x-ms-version", "2014-02-14"), ("Content-Type", "application/octet-stream"),
                ("Content-MD5", "LHmMkMS8mTXh0bRP4e4Ptw=="), ("Content-Language", "EN-US"),
                ("Content-Encoding", "gzip"),
                ("x-ms-blob-type", "BlockBlob"), ("If-Match", "DummyETag"),
                ("x-ms-client-request-id", "93399f8e-6ce2-4020-81a4-4f1f53f427fd"),
                ("x-ms-date", "Thu, 30 Oct 2014 20:46:48 GMT"), ("Content-Length", "423"),
            ], signature: "ZBQYgC9dgzldVfH6t06qIYZujSz/3blWrinuYePTMv8="),
        SharedKeyVector(
            method: "GET", path: "/test",
            query: [
                ("restype", "container"), ("comp", "list"), ("prefix", "te"), ("include", "snapshots"),
                ("INCLUDE", "uncommittedblobs,metadata,copy"),
            ],
            headers: [
                ("x-ms-version", "2014-02-14"), ("x-ms-client-request-id", "9e51b5a3-2dff-4fb2-98f8-c7cfe05a223a"),
                ("x-ms-date", "Thu, 30 Oct 2014 20:55:13 GMT"), ("Content-Length", "0"),
            ], signature: "C0mPsPAiMs+4qlDQXGXMXpRGUkQgyMLzOHBiCmoC4LE="),
    ]
}
