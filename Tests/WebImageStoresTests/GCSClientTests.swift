import Foundation
import Testing
import WebImage

@testable import WebImageStores

/// ``GCSClient`` and ``GoogleServiceAccount`` against ``FakeCloudStore``: the token service verifies the RS256
/// assertion with the key's public half, and GCS answers only the tokens it issued.
@Suite struct GCSClientTests {
    @Test func aServiceAccountReadsObjectsWithOneCachedToken() async throws {
        let fake = try await FakeCloudStore.start()
        fake.state.withLock {
            $0.objects["gcs/images/in/a b.png"] = Data("first".utf8)
            $0.objects["gcs/images/in/c.png"] = Data("second".utf8)
        }
        let account = try GoogleServiceAccount(json: fake.serviceAccountKey())
        let client = GCSClient(
            endpoint: try #require(URL(string: fake.base + "/storage/v1/")), account: account, timeout: .seconds(10))
        // Two reads at once and a third after: one token request.
        async let first = client.object(bucket: "images", key: "in/a b.png", query: nil, maxSize: 1 << 20)
        async let second = client.object(bucket: "images", key: "in/c.png", query: nil, maxSize: 1 << 20)
        let (a, c) = try await (first, second)
        let again = try await client.object(bucket: "images", key: "in/c.png", query: nil, maxSize: 1 << 20)
        #expect(a?.data == Data("first".utf8))
        #expect(c?.data == Data("second".utf8))
        #expect(again?.data == Data("second".utf8))
        #expect(fake.state.withLock { $0.tokenRequests } == 1)
        #expect(fake.state.withLock { $0.refusals["gcs"] } == nil)
        // imgproxy's ETag: CRC32C 1 (little-endian), then the modification time in nanoseconds (little-endian).
        #expect(a?.etag == "01000000" + "00ccb9d6944d9918")
        #expect(a?.lastModified == FakeCloudStore.lastModified)
        #expect(a?.contentType == "image/png")
        // A missing object is nil; an expired token is exchanged again on the next request.
        #expect(try await client.object(bucket: "images", key: "none.png", query: nil, maxSize: 1 << 20) == nil)
        fake.expireTokens()
        await #expect(throws: WebImageError.self) {
            _ = try await client.object(bucket: "images", key: "in/c.png", query: nil, maxSize: 1 << 20)
        }
        #expect(try await client.object(bucket: "images", key: "in/c.png", query: nil, maxSize: 1 << 20) != nil)
        #expect(fake.state.withLock { $0.tokenRequests } == 2)
        try await client.shutdown()
        await fake.stop()
    }

    @Test func aNumericQueryIsTheGenerationAndWithoutAKeyNoTokenIsSent() async throws {
        let fake = try await FakeCloudStore.start()
        fake.state.withLock {
            $0.gcsAnonymous = true
            $0.objects["gcs/b/k.png#42"] = Data("old".utf8)
            $0.objects["gcs/b/k.png"] = Data("new".utf8)
        }
        let client = GCSClient(
            endpoint: try #require(URL(string: fake.base + "/storage/v1")), account: nil, timeout: .seconds(10))
        #expect(try await client.object(bucket: "b", key: "k.png", query: "42", maxSize: 100)?.data == Data("old".utf8))
        #expect(try await client.object(bucket: "b", key: "k.png", query: "x", maxSize: 100)?.data == Data("new".utf8))
        await #expect(throws: WebImageError.self) {
            _ = try await client.object(bucket: "b", key: "k.png", query: nil, maxSize: 2)
        }
        #expect(fake.state.withLock { $0.tokenRequests } == 0)
        try await client.shutdown()
        await fake.stop()
    }

    @Test func aKeyTheTokenServiceRefusesIsABadStatusNamingTheAccountNotTheKey() async throws {
        let fake = try await FakeCloudStore.start()
        let other = try GoogleServiceAccount(json: FakeCloudStoreKeys.otherKey(tokenURI: fake.base + "/token"))
        let client = GCSClient(
            endpoint: try #require(URL(string: fake.base + "/storage/v1/")), account: other, timeout: .seconds(10))
        do {
            _ = try await client.object(bucket: "images", key: "a.png", query: nil, maxSize: 100)
            Issue.record("a refused key read an object")
        } catch {
            #expect(error.code == .badStatus)
            #expect(error.message.contains("other@project"))
            #expect(!error.message.contains("PRIVATE KEY"))
            #expect(error.underlying is CloudStoreError)
        }
        try await client.shutdown()
        await fake.stop()
    }

    @Test(arguments: [
        "", "[]", "{\"type\":\"authorized_user\"}",
        "{\"type\":\"service_account\",\"client_email\":\"a@b\",\"private_key\":\"-----BEGIN PRIVATE KEY-----\"}",
        "{\"type\":\"service_account\",\"client_email\":\"a@b\",\"token_uri\":\"ftp://x\"}",
    ])
    func keysThatAreNotServiceAccountKeysAreRefused(json: String) {
        #expect(throws: CloudStoreError.self) { try GoogleServiceAccount(json: json) }
    }

    @Test func theAssertionIsAnRS256JWTForTheTokenURI() throws {
        let json = FakeCloudStoreKeys.otherKey(tokenURI: "https://oauth2.example/token")
        let account = try GoogleServiceAccount(json: json)
        let jwt = try account.assertion(scope: "s", date: Date(timeIntervalSince1970: 1000))
        let parts = jwt.split(separator: ".")
        #expect(parts.count == 3)
        let claims = try #require(
            Data(base64Encoded: String(parts[1]).replacingOccurrences(of: "-", with: "+") + "=="))
        let object = try #require(try JSONSerialization.jsonObject(with: claims) as? [String: Any])
        #expect(object["aud"] as? String == "https://oauth2.example/token")
        #expect(object["iat"] as? Int == 1000)
        #expect(object["exp"] as? Int == 4600)
        #expect(object["scope"] as? String == "s")
        #expect("\(account)" == "service account other@project.iam.gserviceaccount.com")
    }
}
