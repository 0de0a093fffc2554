import Foundation
import Testing
import WebImage

@testable import WebImageStores

/// The signer against the examples in AWS's S3 documentation ("Signature Calculations for the Authorization Header:
/// Transferring Payload in a Single Chunk"): fixed inputs, published signatures.
@Suite struct SignatureV4Tests {
    private let signer = SignatureV4(
        credentials: S3Credentials(
            accessKey: "AKIAIOSFODNN7EXAMPLE", secretKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
        region: "us-east-1")
    private let host = ("host", "examplebucket.s3.amazonaws.com")
    private let stamp = "20130524T000000Z"
    private let empty = SignatureV4.emptyPayloadHash

    private func signature(_ authorization: String) -> String {
        String(authorization.split(separator: "=").last ?? "")
    }

    @Test func getObjectWithRange() {
        let authorization = signer.authorization(
            method: "GET", path: "/test.txt", query: [],
            headers: [host, ("range", "bytes=0-9"), ("x-amz-content-sha256", empty), ("x-amz-date", stamp)],
            payloadHash: empty, timestamp: stamp)
        #expect(
            authorization
                == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
                + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
                + "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
    }

    @Test func putObjectWithAnEncodedKey() {
        let payload = Hex.sha256("Welcome to Amazon S3.")
        #expect(payload == "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072")
        let authorization = signer.authorization(
            method: "PUT", path: "/test$file.text", query: [],
            headers: [
                ("date", "Fri, 24 May 2013 00:00:00 GMT"), host, ("x-amz-content-sha256", payload),
                ("x-amz-date", stamp), ("x-amz-storage-class", "REDUCED_REDUNDANCY"),
            ], payloadHash: payload, timestamp: stamp)
        #expect(signature(authorization) == "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd")
    }

    @Test func getBucketLifecycleAndListObjects() {
        let headers = [host, ("x-amz-content-sha256", empty), ("x-amz-date", stamp)]
        let lifecycle = signer.authorization(
            method: "GET", path: "/", query: [("lifecycle", "")], headers: headers, payloadHash: empty,
            timestamp: stamp)
        #expect(signature(lifecycle) == "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543")
        let list = signer.authorization(
            method: "GET", path: "/", query: [("prefix", "J"), ("max-keys", "2")], headers: headers,
            payloadHash: empty, timestamp: stamp)
        #expect(signature(list) == "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7")
    }

    @Test func signedHeadersAddTheDateAndPayloadHash() {
        let date = Date(timeIntervalSince1970: 1_369_353_600)  // 2013-05-24T00:00:00Z
        let headers = signer.signedHeaders(
            method: "GET", path: "/test.txt", headers: [("Host", host.1), ("Range", "bytes=0-9")], payloadHash: empty,
            date: date)
        #expect(headers.first { $0.0 == "x-amz-date" }?.1 == stamp)
        #expect(
            headers.first { $0.0 == "Authorization" }.map { signature($0.1) }
                == "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
    }

    @Test func pathsAreEncodedOncePerSegment() {
        #expect(SignatureV4.encodedPath("/b/a b/é+x~y.jpg") == "/b/a%20b/%C3%A9%2Bx~y.jpg")
        #expect(SignatureV4.encodedPath("results/ab") == "/results/ab")
    }

    /// AWS's Signature Version 4 test suite, `post-sts-token/post-sts-header-before`: the session token is a signed
    /// header.
    @Test func sessionTokenSignedAsAHeader() {
        let token = [
            "AQoDYXdzEPT//////////wEXAMPLEtc764bNrC9SAPBSM22wDOk4x4HIZ8j4FZTwdQWLWsKWHGBuFqwAeMicRXmxfp",
            "SPfIeoIYRqTflfKD8YUuwthAx7mSEI/qkPpKPi/kMcGdQrmGdeehM4IC1NtBmUpp2wUE8phUZampKsburEDy0KPkyQ",
            "DYwT7WZ0wq5VSXDvp75YU9HFvlRd8Tx6q6fE8YQcHNVXAkiY9q6d+xo0rKwT38xVqr7ZD0u0iPPkUL64lIZbqBAz+s",
            "cqKmlzm8FDrypNC9Yjc8fPOLn9FX9KSYvKTr4rvx3iSIlTJabIQwj2ICCR/oLxBA==",
        ].joined()
        let suite = SignatureV4(
            credentials: S3Credentials(
                accessKey: "AKIDEXAMPLE", secretKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", sessionToken: token),
            region: "us-east-1", service: "service")
        let authorization = suite.authorization(
            method: "POST", path: "/", query: [],
            headers: [
                ("host", "example.amazonaws.com"), ("x-amz-date", "20150830T123600Z"), ("x-amz-security-token", token),
            ], payloadHash: empty, timestamp: "20150830T123600Z")
        #expect(
            authorization
                == "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
                + "SignedHeaders=host;x-amz-date;x-amz-security-token, "
                + "Signature=85d96828115b5dc0cfc3bd16ad9e210dd772bbebba041836c64533a82be05ead")

        // signedHeaders sends the token and signs it along with the rest.
        let date = Date(timeIntervalSince1970: 1_440_938_160)  // 2015-08-30T12:36:00Z
        let headers = suite.signedHeaders(
            method: "GET", path: "/", headers: [("Host", "example.amazonaws.com")], payloadHash: empty, date: date)
        #expect(headers.first { $0.0 == "x-amz-security-token" }?.1 == token)
        let signed = headers.first { $0.0 == "Authorization" }?.1 ?? ""
        #expect(signed.contains("SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token,"))
        #expect(!signed.contains(token))
        let long = signer.signedHeaders(
            method: "GET", path: "/", headers: [("Host", "example.amazonaws.com")], payloadHash: empty, date: date)
        #expect(!long.contains { $0.0 == "x-amz-security-token" })
    }

    @Test func credentialsNeverPrintTheSecret() {
        let credentials = S3Credentials(accessKey: "AK", secretKey: "very-secret")
        #expect(!"\(credentials)".contains("very-secret"))
        #expect(S3Credentials.fromEnvironment(["WEBIMAGE_S3_ACCESS_KEY": "a"]) == nil)
        #expect(
            S3Credentials.fromEnvironment(["WEBIMAGE_S3_ACCESS_KEY": "a", "WEBIMAGE_S3_SECRET_KEY": "b"])
                == S3Credentials(accessKey: "a", secretKey: "b"))
    }
}
