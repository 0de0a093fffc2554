import Testing
import WebImageTesting

/// The README's library quick start is `Snippets/QuickStart.swift`, which every build compiles and the DocC catalogue
/// shows; this checks that the README shows exactly that code.
@Suite struct ReadmeExamplesTests {
    @Test func readmeHasThisCode() throws {
        let (shown, compiled) = try ReadmeCode.shownAndCompiled(after: "import WebImage", snippet: "QuickStart")
        #expect(!compiled.isEmpty)
        #expect(shown == compiled, "README's quick start differs from Snippets/QuickStart.swift")
    }
}
