import Foundation
import Testing

/// The fake services' own Signature V4 check against AWS's published test suite (`get-vanilla`, `post-vanilla`),
/// so that what it accepts is what AWS would accept.
@Suite struct FakeAWSSignatureTests {
    private static let secrets = ["AKIDEXAMPLE": "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"]

    private static func headers(_ signature: String) -> [(String, String)] {
        [
            ("host", "example.amazonaws.com"), ("x-amz-date", "20150830T123600Z"),
            (
                "authorization",
                "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
                    + "SignedHeaders=host;x-amz-date, Signature=\(signature)"
            ),
        ]
    }

    @Test func awsVectorsVerifyAndAChangedByteDoesNot() {
        let get = "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"
        let post = "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b"
        let signer = FakeAWSSignature.verify(
            method: "GET", path: "/", query: "", headers: Self.headers(get), body: Data(), secrets: Self.secrets)
        #expect(signer?.accessKey == "AKIDEXAMPLE" && signer?.service == "service" && signer?.region == "us-east-1")
        #expect(
            FakeAWSSignature.verify(
                method: "POST", path: "/", query: "", headers: Self.headers(post), body: Data(), secrets: Self.secrets)
                != nil)
        #expect(
            FakeAWSSignature.verify(
                method: "POST", path: "/", query: "", headers: Self.headers(get), body: Data(), secrets: Self.secrets)
                == nil)
        #expect(
            FakeAWSSignature.verify(
                method: "GET", path: "/", query: "", headers: Self.headers(get), body: Data("x".utf8),
                secrets: Self.secrets) == nil)
        #expect(
            FakeAWSSignature.verify(
                method: "GET", path: "/", query: "", headers: Self.headers(get), body: Data(),
                secrets: ["AKIDEXAMPLE": "other"]) == nil)
    }
}
