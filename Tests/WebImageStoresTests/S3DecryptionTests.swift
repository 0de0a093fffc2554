import Crypto
import Foundation
import Testing
import WebImage
import WebImageTesting

@testable import WebImageStores

/// `IMGPROXY_S3_USE_DECRYPTION_CLIENT`: objects encrypted here exactly as the AWS S3 Encryption Client v2 lays them
/// out (AES-256-GCM body with its tag last, the data key wrapped by KMS with the `kms+context` context, the envelope
/// in the metadata or in an instruction file), stored in a live SeaweedFS, and read back through the loader, whose
/// KMS `Decrypt` goes to the fake KMS.
@Suite(.serialized) struct S3DecryptionTests {
    /// `plaintext` encrypted under a fresh data key: the body and the envelope; `wrapped` is the data key's
    /// ciphertext as KMS would answer it (any bytes: the fake KMS maps them back).
    static func encrypt(_ plaintext: Data, wrapped: Data) throws -> (body: Data, envelope: [String: String], key: Data)
    {
        let key = SymmetricKey(size: .bits256)
        let nonce = AES.GCM.Nonce()
        let sealed = try AES.GCM.seal(plaintext, using: key, nonce: nonce)
        let matdesc = "{\"aws:x-amz-cek-alg\":\"AES/GCM/NoPadding\",\"kms_cmk_id\":\"alias/images\"}"
        let envelope = [
            "x-amz-key-v2": wrapped.base64EncodedString(), "x-amz-iv": Data(nonce).base64EncodedString(),
            "x-amz-cek-alg": "AES/GCM/NoPadding", "x-amz-wrap-alg": "kms+context", "x-amz-matdesc": matdesc,
            "x-amz-tag-len": "128", "x-amz-unencrypted-content-length": String(plaintext.count),
        ]
        return (sealed.ciphertext + sealed.tag, envelope, key.withUnsafeBytes { Data($0) })
    }

    @Test func encryptedObjectsAreDecryptedAndOthersRefusedAsImgproxysClientDoes() async throws {
        let seaweed = try await SeaweedFS.start()
        defer { seaweed.process.stop() }
        let client = S3Client(
            configuration: .init(endpoint: seaweed.endpoint, credentials: seaweed.credentials, timeout: .seconds(10)))
        try await client.createBucketReadyForWrites("secret")
        let photo = try Fixtures.data("corpus/images/exif_Landscape_1.jpg")
        let inMetadata = try Self.encrypt(photo, wrapped: Data("wrapped-1".utf8))
        let inInstruction = try Self.encrypt(Data("instruction".utf8), wrapped: Data("wrapped-2".utf8))
        let context = ["aws:x-amz-cek-alg": "AES/GCM/NoPadding", "kms_cmk_id": "alias/images"]
        let kms = try await FakeAWS.start(
            .init(
                secrets: [seaweed.credentials.accessKey: seaweed.credentials.secretKey],
                dataKeys: [
                    Data("wrapped-1".utf8).base64EncodedString(): (inMetadata.key, context),
                    Data("wrapped-2".utf8).base64EncodedString(): (inInstruction.key, context),
                ]))
        try await client.put(bucket: "secret", key: "a.jpg", data: inMetadata.body, metadata: inMetadata.envelope)
        try await client.put(bucket: "secret", key: "b.txt", data: inInstruction.body)
        try await client.put(
            bucket: "secret", key: "b.txt.instruction",
            data: try JSONSerialization.data(withJSONObject: inInstruction.envelope))
        try await client.put(bucket: "secret", key: "plain.jpg", data: photo)
        var tampered = inMetadata.body
        tampered[tampered.startIndex + 10] ^= 1
        try await client.put(bucket: "secret", key: "tampered.jpg", data: tampered, metadata: inMetadata.envelope)
        var v1 = inMetadata.envelope
        v1["x-amz-key"] = v1.removeValue(forKey: "x-amz-key-v2")
        v1["x-amz-cek-alg"] = "AES/CBC/PKCS5Padding"
        try await client.put(bucket: "secret", key: "v1.jpg", data: inMetadata.body, metadata: v1)

        let decryption = S3DecryptionClient(
            kms: KMSClient(sender: AWSRequestSender(endpoint: kms.endpoint, region: "us-east-1", service: .kms)))
        let loader = S3ImageLoader(client: client, decryption: decryption)
        func load(_ key: String) async throws(WebImageError) -> Data {
            try await loader.load(
                ImageLoadRequest(url: URL(string: "s3://secret/\(key)")!), progress: nil, partialData: nil
            ).data
        }
        #expect(try await load("a.jpg") == photo)
        #expect(try await load("b.txt") == Data("instruction".utf8))
        let call = try #require(kms.calls.first)
        #expect(call.operation == "Decrypt" && call.service == "kms" && call.region == "us-east-1")
        #expect(call.parameters["EncryptionContext"]?.contains("\"kms_cmk_id\":\"alias\\/images\"") == true)
        #expect(call.parameters["KeyId"] == nil)
        // No envelope and no instruction file: missing, as imgproxy's client answers it.
        await #expect(throws: WebImageError.self) { try await load("plain.jpg") }
        do { _ = try await load("plain.jpg") } catch { #expect(error.httpStatus == 404) }
        do { _ = try await load("tampered.jpg") } catch {
            #expect(error.code == .corruptData)
            #expect(!error.description.contains(inMetadata.key.base64EncodedString()))
        }
        do { _ = try await load("v1.jpg") } catch { #expect(error.code == .unsupportedFormat) }
        // A context KMS does not recognise: KMS's refusal, passed on.
        kms.state.withLock { $0.dataKeys = [:] }
        do { _ = try await load("a.jpg") } catch { #expect(error.description.contains("InvalidCiphertextException")) }
        try await client.shutdown()
        try await decryption.kms.json.sender.shutdown()
        await kms.stop()
    }
}
