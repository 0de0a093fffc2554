import Testing

@testable import WebImageServer

@Suite("Server: URL signatures")
struct SignatureTests {
    /// imgproxy's documented signing example (examples/signature.* in imgproxy's repository).
    static let key = "943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881"
    static let salt = "520f986b998545b4785e0defbc4f3c1203f22de2374a3d53cb7a7fe9fea309c5"
    static let path = "/rs:fit:300:300/plain/http://img.example.com/pretty/image.jpg"
    static let signature = "m3k5QADfcKPDj-SDI2AIogZbC3FlAXszuwhtWXYqavc"

    @Test func signsImgproxysDocumentedExample() throws {
        let signer = try #require(URLSigner(hexKey: Self.key, hexSalt: Self.salt))
        #expect(signer.signature(for: Self.path) == Self.signature)
        #expect(signer.verify(Self.signature, for: Self.path))
    }

    @Test func signsImgproxysTestVectorAddingTheLeadingSlash() {
        let signer = URLSigner(key: Array("test-key".utf8), salt: Array("test-salt".utf8))
        #expect(signer.signature(for: "asd") == "oWaL7QoW5TsgbuiS9-5-DI8S3Ibbo1gdB2SteJh3a20")
        #expect(signer.verify("oWaL7QoW5TsgbuiS9-5-DI8S3Ibbo1gdB2SteJh3a20", for: "asd"))
        // imgproxy decodes without padding (RawURLEncoding): the same MAC with `=` is refused.
        #expect(!signer.verify("oWaL7QoW5TsgbuiS9-5-DI8S3Ibbo1gdB2SteJh3a20=", for: "asd"))
    }

    @Test func parserAcceptsTheSignedPathAndRefusesAnyChange() throws {
        let parser = ImageURLParser(signer: URLSigner(hexKey: Self.key, hexSalt: Self.salt))
        let request = try parser.parse("/" + Self.signature + Self.path, now: 0)
        #expect(request.source == "http://img.example.com/pretty/image.jpg")
        #expect(request.options.width == 300)
        for bad in [
            "/" + Self.signature + "/rs:fit:301:300/plain/http://img.example.com/pretty/image.jpg",
            "/insecure" + Self.path, "/" + Self.signature.dropLast() + "A" + Self.path, "/!!!" + Self.path,
            "/" + Self.signature + "=" + Self.path + "x",
        ] {
            #expect(throws: ImageServerError(status: 403, "invalid signature")) { try parser.parse(bad, now: 0) }
        }
    }

    @Test func withoutAKeyAnySignatureIsAcceptedButAnOptionInItsPlaceIsNot() throws {
        let parser = ImageURLParser(signer: nil)
        #expect(try parser.parse("/insecure/w:10/plain/http://a.example/x.jpg", now: 0).options.width == 10)
        #expect(try parser.parse("/anything/plain/http://a.example/x.jpg", now: 0).source == "http://a.example/x.jpg")
        #expect(throws: ImageServerError.self) { try parser.parse("/w:10/plain/http://a.example/x.jpg", now: 0) }
    }

    @Test func rejectsKeysThatAreNotHex() {
        #expect(URLSigner(hexKey: "xyz", hexSalt: "00") == nil)
        #expect(URLSigner(hexKey: "abc", hexSalt: "00") == nil)
        #expect(URLSigner(hexKey: "", hexSalt: "00") == nil)
        #expect(URLSigner(hexKey: "0A", hexSalt: "ff") != nil)
    }
}

/// Key rotation, truncated and trusted signatures, as imgproxy's `security/signature.go` takes them.
@Suite("Server: several keys, signature size, trusted signatures")
struct SignatureRotationTests {
    static let first = URLSigner.KeyPair(key: Array("test-key".utf8), salt: Array("test-salt".utf8))
    static let second = URLSigner.KeyPair(key: Array("test-key2".utf8), salt: Array("test-salt2".utf8))

    @Test func aSignatureByAnyPairIsAcceptedAndNewOnesUseTheFirst() throws {
        let signer = try #require(URLSigner(pairs: [Self.first, Self.second]))
        #expect(signer.signature(for: "/asd") == "oWaL7QoW5TsgbuiS9-5-DI8S3Ibbo1gdB2SteJh3a20")
        #expect(signer.verify("oWaL7QoW5TsgbuiS9-5-DI8S3Ibbo1gdB2SteJh3a20", for: "/asd"))
        #expect(signer.verify("jYz1UZ7j1BCdSzH3pZhaYf0iuz0vusoOTdqJsUT6WXI", for: "/asd"))
        #expect(!signer.verify("jYz1UZ7j1BCdSzH3pZhaYf0iuz0vusoOTdqJsUT6WXI", for: "/asdf"))
        let single = URLSigner(key: Self.first.key, salt: Self.first.salt)
        #expect(!single.verify("jYz1UZ7j1BCdSzH3pZhaYf0iuz0vusoOTdqJsUT6WXI", for: "/asd"), "the second pair's")
    }

    @Test func aTruncatedSignatureKeepsItsFirstBytes() throws {
        let signer = try #require(URLSigner(pairs: [Self.first], signatureSize: 8))
        #expect(signer.signature(for: "/asd") == "oWaL7QoW5Ts")
        #expect(signer.verify("oWaL7QoW5Ts", for: "/asd"))
        #expect(!signer.verify("oWaL7QoW5TsgbuiS9-5-DI8S3Ibbo1gdB2SteJh3a20", for: "/asd"), "only the size asked for")
        #expect(!signer.verify("oWaL7QoW5Ta", for: "/asd"))
    }

    @Test func trustedSignaturesNeedNoCheck() throws {
        let signer = try #require(URLSigner(pairs: [Self.first], trustedSignatures: ["trusted-sig", "x"]))
        #expect(signer.verify("trusted-sig", for: "/anything"))
        #expect(!signer.verify("trusted-si", for: "/anything"))
        let parser = ImageURLParser(signer: signer)
        #expect(try parser.parse("/x/w:10/plain/http://a.example/b.jpg", now: 0).options.width == 10)
    }

    @Test func badSettingsMakeNoSigner() {
        #expect(URLSigner(pairs: []) == nil)
        #expect(URLSigner(pairs: [Self.first], signatureSize: 0) == nil)
        #expect(URLSigner(pairs: [Self.first], signatureSize: 33) == nil)
        #expect(URLSigner(hexKeys: ["00", "11"], hexSalts: ["22"]) == nil, "as many salts as keys")
        #expect(URLSigner(hexKeys: ["00", "zz"], hexSalts: ["22", "33"]) == nil)
        #expect(URLSigner(hexKeys: ["0011", "2233"], hexSalts: ["4455", "6677"])?.pairs.count == 2)
    }
}
