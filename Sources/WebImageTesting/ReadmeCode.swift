import Foundation

/// The code blocks of the project's README, for the tests that compile them so that they cannot rot.
public enum ReadmeCode {
    /// The README's text.
    public static func readme() throws -> String {
        let root = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    }

    /// The README's code block after the line containing `begin` (up to its closing fence) and the code between the
    /// `README: begin` and `README: end` markers of the test file at `sourcePath`: equal when the README shows the
    /// code that test compiles.
    public static func shownAndCompiled(
        after begin: String, sourcePath: String
    ) throws -> (
        shown: [String], compiled: [String]
    ) {
        let source = try String(contentsOfFile: sourcePath, encoding: .utf8)
        let marker = "// README: "
        return (lines(try readme(), from: begin, to: "```"), lines(source, from: marker + "begin", to: marker + "end"))
    }

    /// The lines between the first line containing `begin` and the next containing `end`, each with its indentation
    /// removed, blank lines dropped.
    public static func lines(_ text: String, from begin: String, to end: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(where: { $0.contains(begin) }),
            let stop = lines[(start + 1)...].firstIndex(where: { $0.contains(end) })
        else { return [] }
        return lines[(start + 1)..<stop].map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
