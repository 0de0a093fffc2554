import Crypto
import Foundation
import Testing
import WebImage

@testable import WebImageStores

/// Signature Version 4A against AWS's published test suite (aws-c-auth `tests/aws-signing-test-suite/v4a/`:
/// `get-vanilla`, `get-vanilla-with-session-token`, `get-vanilla-query-order-key-case`): the public key of the
/// suite's credentials, the strings to sign, and the suite's own signatures verified with that key; then signatures
/// made here verified by the test's own check (``FakeAWSSignatureV4A``).
@Suite struct SignatureV4ATests {
    private static let accessKey = "AKIDEXAMPLE"
    private static let secret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
    /// The suite's `public-key.json`, as an uncompressed point.
    private static let publishedKey =
        "04b6618f6a65740a99e650b33b6b4b5bd0d43b176d721a3edfea7e7d2d56d936b1"
        + "865ed22a7eadc9c5cb9d2cbaca1b3699139fedc5043dc6661864218330c8e518"
    private static let stamp = "20150830T123600Z"

    @Test func derivedKeyIsThePublishedOne() throws {
        let key = try SignatureV4A.signingKey(accessKey: Self.accessKey, secretKey: Self.secret)
        #expect(Hex.string(key.publicKey.x963Representation) == Self.publishedKey)
        let independent = try #require(FakeAWSSignatureV4A.publicKey(accessKey: Self.accessKey, secret: Self.secret))
        #expect(Hex.string(independent.x963Representation) == Self.publishedKey)
        let other = try SignatureV4A.signingKey(accessKey: "AKIDOTHER", secretKey: Self.secret)
        #expect(Hex.string(other.publicKey.x963Representation) != Self.publishedKey)
    }

    @Test(arguments: [
        (
            [("Param2", "value2"), ("Param1", "value1")], nil as String?,
            "cc07b29e0d0f0b2d6aa296621a5608fd9c2271159b9b2f737f682704ebb96482",
            "3045022100b342b0d62487d235a5baf82e970102670a8d7af34c61f086125d204a90724d9e022070304e846de3de228c57e528b6"
                + "1f4addfdb5fa788a8a452e483c6a286d8803f5"
        ),
        (
            [], nil,
            "cf59db423e841c8b7e3444158185aa261b724a5c27cbe762676f3eed19f4dc02",
            "3045022018b4e277d0281864beb51d3600e23f88510ea5031d68ddfbb68614b82a5eb7d2022100effb9c5f22ed9ef3ae0ab243d2"
                + "1f06bce82365bbb79529a07b6888c343ae5f8c"
        ),
        (
            [], "6e86291e8372ff2a2260956d9b8aae1d763fbf315fa00fa31553b73ebf194267",
            "79893373104239a0547df489af395ec3c1b8873a8601f07f11ffd3f1ac557e7d",
            "3044022035c6bc9a8cab8a434bd8bd1cc3b6f1401842f530f1537722ad10d72a1577f8c80220101352fe0720715efbab80f82edb"
                + "133175f0b61cad85daf943ad615852f9ae10"
        ),
    ])
    func stringsToSignAndSignaturesOfTheSuite(
        query: [(String, String)], token: String?, canonicalHash: String, signature: String
    ) throws {
        let signer = SignatureV4A(
            credentials: S3Credentials(accessKey: Self.accessKey, secretKey: Self.secret, sessionToken: token),
            regionSet: ["us-east-1"], service: "service")
        var headers = [
            ("host", "example.amazonaws.com"), ("x-amz-date", Self.stamp), ("x-amz-region-set", "us-east-1"),
        ]
        if let token { headers.append(("x-amz-security-token", token)) }
        let (text, scope, names) = signer.stringToSign(
            method: "GET", path: "/", query: query, headers: headers, payloadHash: SignatureV4.emptyPayloadHash,
            timestamp: Self.stamp)
        #expect(scope == "20150830/service/aws4_request")
        #expect(text == "AWS4-ECDSA-P256-SHA256\n\(Self.stamp)\n\(scope)\n\(canonicalHash)")
        #expect(names == "host;x-amz-date;x-amz-region-set" + (token == nil ? "" : ";x-amz-security-token"))
        // The suite's signature is ECDSA over the SHA-256 of the string to sign, with the published key.
        let key = try P256.Signing.PublicKey(
            x963Representation: try #require(FakeAWSSignatureV4A.bytes(hex: Self.publishedKey)))
        let published = try P256.Signing.ECDSASignature(
            derRepresentation: try #require(FakeAWSSignatureV4A.bytes(hex: signature)))
        #expect(key.isValidSignature(published, for: Data(text.utf8)))
        #expect(!key.isValidSignature(published, for: Data((text + " ").utf8)))
    }

    @Test func signedRequestsVerifyIndependentlyAndAChangeDoesNot() throws {
        let signer = SignatureV4A(
            credentials: S3Credentials(accessKey: Self.accessKey, secretKey: Self.secret, sessionToken: "token"))
        let host = ("Host", "mfzwi23gnjvgw.mrap.accesspoint.s3-global.amazonaws.com")
        let added = try signer.signedHeaders(
            method: "GET", path: "/in/a b.jpg", query: [("versionId", "1")], headers: [host],
            payloadHash: SignatureV4.emptyPayloadHash, date: Date(timeIntervalSince1970: 1_440_938_160))
        #expect(
            added.map(\.0) == [
                "x-amz-date", "x-amz-content-sha256", "x-amz-region-set", "x-amz-security-token", "Authorization",
            ])
        #expect(added.first { $0.0 == "x-amz-region-set" }?.1 == "*")
        let authorization = try #require(added.last?.1)
        #expect(authorization.hasPrefix("AWS4-ECDSA-P256-SHA256 Credential=AKIDEXAMPLE/20150830/s3/aws4_request, "))
        let secrets = [Self.accessKey: Self.secret]
        func verify(path: String = "/in/a%20b.jpg", secrets: [String: String] = secrets) -> FakeAWSSignatureV4A.Signer?
        {
            FakeAWSSignatureV4A.verify(
                method: "GET", path: path, query: "versionId=1", headers: [host] + added, body: Data(),
                secrets: secrets)
        }
        let verified = try #require(verify())
        #expect(verified.accessKey == Self.accessKey && verified.service == "s3" && verified.regionSet == "*")
        #expect(verify(path: "/in/a%20c.jpg") == nil)
        #expect(verify(secrets: [Self.accessKey: "another secret"]) == nil)
    }

    @Test func comparisonOfBigEndianNumbers() {
        #expect(!SignatureV4A.isGreater([0, 0, 0], than: [0, 0, 1]))
        #expect(!SignatureV4A.isGreater([0xAB, 0xCD, 0x80], than: [0xAB, 0xCD, 0x80]))
        #expect(SignatureV4A.isGreater([0xFF, 0xCD, 0x80], than: [0xFE, 0xCD, 0x80]))
        #expect(SignatureV4A.isGreater([0x01, 0x00, 0x00], than: [0x00, 0xFF, 0xFF]))
        #expect(!SignatureV4A.isGreater([0x00, 0xFF, 0xFF], than: [0x01, 0x00, 0x00]))
    }
}
