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
