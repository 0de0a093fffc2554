import Foundation
import Testing
import WebImageServer
import WebImageTesting

/// The README's Swift example of signing a server URL, compiled here so that it cannot rot, and checked against the
/// server's own parser.
@Suite struct ReadmeServerExampleTests {
    /// The README's code, with the values it leaves to the reader.
    static func signedURL(key: String, salt: String, source: String) -> URL {
        // README: begin
        let signer = URLSigner(hexKey: key, hexSalt: salt)!
        let path = "/rs:fill:300:200/g:sm/plain/" + source.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let url = URL(string: "https://images.example.com/" + signer.signature(for: path) + path)!
        // README: end
        return url
    }

    @Test func readmeHasThisCode() throws {
        let (shown, compiled) = try ReadmeCode.shownAndCompiled(after: "import WebImageServer", sourcePath: #filePath)
        #expect(!compiled.isEmpty)
        #expect(shown == compiled, "README's signing example differs from ReadmeServerExampleTests.swift")
    }

    @Test func theExampleURLPassesTheServersSignatureCheck() throws {
        let (key, salt) = ("943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881", "520f986b998545b4")
        let source = "https://example.com/photos/cat 1.jpg?size=large"
        let url = Self.signedURL(key: key, salt: salt, source: source)
        let parser = ImageURLParser(signer: URLSigner(hexKey: key, hexSalt: salt))
        let request = try parser.parse(url.path(percentEncoded: true), now: 0)
        #expect(request.source == source)
        #expect(request.options.width == 300 && request.options.height == 200)
        #expect(throws: ImageServerError.self) {
            try ImageURLParser(signer: URLSigner(hexKey: key, hexSalt: "00")).parse(
                url.path(percentEncoded: true), now: 0)
        }
    }
}
