import Crypto
import Foundation
import Testing
import WebImage
import WebImageTesting

@testable import WebImageStores

/// The key-committing format the S3 Encryption Client v4 writes by default (`ALG_AES_256_GCM_HKDF_SHA512_COMMIT_KEY`,
/// metadata `x-amz-c`, `x-amz-3`, `x-amz-w`, `x-amz-t`, `x-amz-d`, `x-amz-i`): the derivation against the vectors of
/// the Go client's tests, then objects encrypted here from the format's description (its own HKDF, RFC 5869 over
/// HMAC-SHA512), stored in a live SeaweedFS, read back through the loader with the fake KMS.
@Suite(.serialized) struct S3CommittingDecryptionTests {
    /// RFC 5869 HKDF with HMAC-SHA512, written here apart from the package's use of swift-crypto's `HKDF`.
    static func hkdf(key: Data, salt: Data, info: Data, count: Int) -> Data {
        let prk = Data(HMAC<SHA512>.authenticationCode(for: key, using: SymmetricKey(data: salt)))
        var output = Data()
        var block = Data()
        var counter: UInt8 = 1
        while output.count < count {
            block = Data(
                HMAC<SHA512>.authenticationCode(for: block + info + [counter], using: SymmetricKey(data: prk)))
            output += block
            counter += 1
        }
        return output.prefix(count)
    }

    /// `plaintext` encrypted under `dataKey` in the v3 format: the body and every envelope value; `wrapped` stands
    /// for the data key's KMS ciphertext (the fake KMS maps it back).
    static func encrypt(
        _ plaintext: Data, dataKey: Data, wrapped: Data, context: String
    ) throws -> (body: Data, envelope: [String: String]) {
        let messageID = Data((0..<28).map { _ in UInt8.random(in: 0...255) })
        let suite = Data([0x00, 0x73])
        let commitment = hkdf(key: dataKey, salt: messageID, info: suite + Data("COMMITKEY".utf8), count: 28)
        let contentKey = hkdf(key: dataKey, salt: messageID, info: suite + Data("DERIVEKEY".utf8), count: 32)
        let sealed = try AES.GCM.seal(
            plaintext, using: SymmetricKey(data: contentKey), nonce: AES.GCM.Nonce(data: Data(repeating: 1, count: 12)),
            authenticating: suite)
        let envelope = [
            "x-amz-3": wrapped.base64EncodedString(), "x-amz-w": "12", "x-amz-t": context, "x-amz-c": "115",
            "x-amz-d": commitment.base64EncodedString(), "x-amz-i": messageID.base64EncodedString(),
        ]
        return (sealed.ciphertext + sealed.tag, envelope)
    }

    private static func bytes(_ hex: String) -> Data { Data(FakeAWSSignatureV4A.bytes(hex: hex) ?? []) }

    /// The Go client's `key_derivation_test.go` vectors: data key, message id → content key, commitment.
    @Test(arguments: [
        (
            "80d90dc4cc7e77d8a6332efa44eba56230a7fe7b89af37d1e501ab2e07c0a163",
            "b8ea76bed24c7b85382a148cb9dcd1cfdfb765f55ded4dfa6e0c4c79",
            "6dd14f546cc006e639126e83f5d4d1b118576bb5df97f38c6fb3a1db87bbc338",
            "f89818bc0a346d3a3426b68e9509b6b2ae5fe1f904aa329fb73625db"
        ),
        (
            "501afb8227d22e75e68010414b8abdaf3064c081e8e922dafef4992036394d60",
            "61a00b4981a5aacfd136c55cb726e32d2a547dc7600a7d4675c69127",
            "e14786a714748d1d2c3a4a6816dec56ddf1881bbeabb4f39420ffb9f63700b2f",
            "5c1e73e47f6fe3a70d6d094283aceaa76d2975feb829212d88f0afc1"
        ),
    ])
    func derivationMatchesThePublishedVectors(
        dataKey: String, messageID: String, content: String, commit: String
    )
        throws
    {
        let (key, id) = (Self.bytes(dataKey), Self.bytes(messageID))
        let suite = Data([0x00, 0x73])
        #expect(Self.hkdf(key: key, salt: id, info: suite + Data("COMMITKEY".utf8), count: 28) == Self.bytes(commit))
        #expect(Self.hkdf(key: key, salt: id, info: suite + Data("DERIVEKEY".utf8), count: 32) == Self.bytes(content))
        let derived = try S3KeyCommitment.contentKey(
            dataKey: key, messageID: id, commitment: Self.bytes(commit), objectKey: "k")
        #expect(derived.withUnsafeBytes { Data($0) } == Self.bytes(content))
        var wrong = Self.bytes(commit)
        wrong[wrong.startIndex] ^= 1
        #expect(throws: WebImageError.self) {
            try S3KeyCommitment.contentKey(dataKey: key, messageID: id, commitment: wrong, objectKey: "k")
        }
    }

    @Test func committedObjectsAreDecryptedAndAWrongCommitmentIsAnError() async throws {
        let seaweed = try await SeaweedFS.start()
        defer { seaweed.process.stop() }
        let dataKey = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        let otherKey = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        let context = ["aws:x-amz-cek-alg": "115", "kms_cmk_id": "alias/images"]
        let accented = context.merging(["photographer": "Zoë"]) { $1 }
        let kms = try await FakeAWS.start(
            .init(
                secrets: [seaweed.credentials.accessKey: seaweed.credentials.secretKey],
                dataKeys: [
                    Data("k1".utf8).base64EncodedString(): (dataKey, context),
                    Data("k2".utf8).base64EncodedString(): (otherKey, context),
                    Data("k3".utf8).base64EncodedString(): (dataKey, accented),
                ]))
        let client = S3Client(
            configuration: .init(endpoint: seaweed.endpoint, credentials: seaweed.credentials, timeout: .seconds(10)))
        let decryption = S3DecryptionClient(
            kms: KMSClient(sender: AWSRequestSender(endpoint: kms.endpoint, region: "us-east-1", service: .kms)))
        // Every client is shut down even when a check throws: one left open would end the test process.
        var failure: (any Error)?
        do { try await Self.check(client: client, decryption: decryption, kms: kms, dataKey: dataKey) } catch {
            failure = error
        }
        try await client.shutdown()
        try await decryption.kms.json.sender.shutdown()
        await kms.stop()
        if let failure { throw failure }
    }

    /// Stores the objects (good, and each kind of bad) and reads them back through the loader.
    private static func check(
        client: S3Client, decryption: S3DecryptionClient, kms: FakeAWS, dataKey: Data
    ) async throws {
        try await client.createBucketReadyForWrites("committed")
        let photo = try Fixtures.data("corpus/images/exif_Landscape_1.jpg")
        let context = "{\"aws:x-amz-cek-alg\":\"115\",\"kms_cmk_id\":\"alias/images\"}"
        let object = try Self.encrypt(photo, dataKey: dataKey, wrapped: Data("k1".utf8), context: context)
        try await client.put(bucket: "committed", key: "a.jpg", data: object.body, metadata: object.envelope)
        // The instruction-file variant: the wrapped key, its wrapping and context in the file, the rest in metadata.
        let inFile = ["x-amz-3", "x-amz-w", "x-amz-t"]
        try await client.put(
            bucket: "committed", key: "b.jpg", data: object.body,
            metadata: object.envelope.filter { !inFile.contains($0.key) })
        try await client.put(
            bucket: "committed", key: "b.jpg.instruction",
            data: try JSONSerialization.data(withJSONObject: object.envelope.filter { inFile.contains($0.key) }))
        // The same body, its envelope naming another data key (whose commitment it is not).
        var swapped = object.envelope
        swapped["x-amz-3"] = Data("k2".utf8).base64EncodedString()
        try await client.put(bucket: "committed", key: "swapped.jpg", data: object.body, metadata: swapped)
        var forged = object.envelope
        var commitment = try #require(Data(base64Encoded: forged["x-amz-d"] ?? ""))
        commitment[commitment.startIndex + 3] ^= 0x40
        forged["x-amz-d"] = commitment.base64EncodedString()
        try await client.put(bucket: "committed", key: "forged.jpg", data: object.body, metadata: forged)
        var tampered = object.body
        tampered[tampered.startIndex + 7] ^= 1
        try await client.put(bucket: "committed", key: "tampered.jpg", data: tampered, metadata: object.envelope)
        // A context with a non-ASCII value, as S3 answers it (double-encoded in an encoded word).
        let accentedContext = "{\"aws:x-amz-cek-alg\":\"115\",\"kms_cmk_id\":\"alias/images\",\"photographer\":\"Zoë\"}"
        let accented = try Self.encrypt(photo, dataKey: dataKey, wrapped: Data("k3".utf8), context: "")
        var accentedEnvelope = accented.envelope
        accentedEnvelope["x-amz-t"] = S3MetadataTextTests.doubleEncoded(accentedContext)
        try await client.put(bucket: "committed", key: "accented.jpg", data: accented.body, metadata: accentedEnvelope)
        var mixed = object.envelope
        mixed["x-amz-key-v2"] = mixed["x-amz-3"]
        try await client.put(bucket: "committed", key: "mixed.jpg", data: object.body, metadata: mixed)
        try await client.put(
            bucket: "committed", key: "misplaced.jpg", data: object.body,
            metadata: object.envelope.filter { !inFile.contains($0.key) })
        try await client.put(
            bucket: "committed", key: "misplaced.jpg.instruction",
            data: try JSONSerialization.data(withJSONObject: object.envelope))

        let loader = S3ImageLoader(client: client, decryption: decryption)
        func load(_ key: String) async throws(WebImageError) -> Data {
            try await loader.load(
                ImageLoadRequest(url: URL(string: "s3://committed/\(key)")!), progress: nil, partialData: nil
            ).data
        }
        #expect(try await load("a.jpg") == photo)
        #expect(try await load("b.jpg") == photo)
        #expect(try await load("accented.jpg") == photo)
        let call = try #require(kms.calls.first)
        #expect(call.operation == "Decrypt")
        #expect(call.parameters["EncryptionContext"]?.contains("\"aws:x-amz-cek-alg\":\"115\"") == true)
        for key in ["swapped.jpg", "forged.jpg", "tampered.jpg", "mixed.jpg", "misplaced.jpg"] {
            do {
                let data = try await load(key)
                Issue.record("\(key) answered \(data.count) bytes")
            } catch {
                #expect(error.code == .corruptData, "\(key): \(error)")
                #expect(!error.description.contains(dataKey.base64EncodedString()))
            }
        }
        do { _ = try await load("swapped.jpg") } catch { #expect(error.description.contains("commitment")) }
    }
}
