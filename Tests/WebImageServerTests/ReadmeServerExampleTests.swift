import Foundation
import Testing
import WebImageServer
import WebImageTesting

/// The README's Swift example of signing a server URL is `Snippets/SignedURL.swift`, which every build compiles and
/// the DocC catalogue shows: the README must show that code, and the URL the built snippet prints must pass the
/// server's own parser.
@Suite struct ReadmeServerExampleTests {
    @Test func readmeHasThisCode() throws {
        let (shown, compiled) = try ReadmeCode.shownAndCompiled(after: "import WebImageServer", snippet: "SignedURL")
        #expect(!compiled.isEmpty)
        #expect(shown == compiled, "README's signing example differs from Snippets/SignedURL.swift")
    }

    @Test func theExampleURLPassesTheServersSignatureCheck() throws {
        let snippet = try #require(
            ServeCommandTests.executable(named: "SignedURL"), "the SignedURL snippet was not built next to the tests")
        let (key, salt) = ("943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881", "520f986b998545b4")
        let source = "https://example.com/photos/cat 1.jpg?size=large"
        let process = Process()
        process.executableURL = snippet
        process.arguments = [key, salt, source]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let url = try #require(URL(string: printed.trimmingCharacters(in: .whitespacesAndNewlines)))
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
