import Foundation

/// The code blocks of the project's README and the snippets they show (`Snippets/`, compiled by every build and shown
/// in the DocC catalogues), for the tests that keep the two the same.
public enum ReadmeCode {
    /// The package's root directory.
    static var root: URL { Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent() }

    /// The README's text.
    public static func readme() throws -> String {
        try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    }

    /// The README's code block after the line containing `begin` (up to its closing fence) and what the snippet
    /// `Snippets/<snippet>.swift` shows after its line containing `begin` (its `snippet.hide` parts left out): equal
    /// when the README shows the code that the snippet compiles.
    public static func shownAndCompiled(
        after begin: String, snippet: String
    ) throws -> (
        shown: [String], compiled: [String]
    ) {
        let source = try String(
            contentsOf: root.appendingPathComponent("Snippets/\(snippet).swift"), encoding: .utf8)
        let visible = visibleLines(ofSnippet: source)
        let compiled = visible.firstIndex { $0.contains(begin) }.map { Array(visible[($0 + 1)...]) } ?? []
        return (lines(try readme(), from: begin, to: "```"), compiled)
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

    /// The lines of a snippet that DocC shows: those outside its `// snippet.hide` … `// snippet.show` parts, each
    /// with its indentation removed, blank lines dropped.
    static func visibleLines(ofSnippet source: String) -> [String] {
        var shown = true
        var visible: [String] = []
        for line in source.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line == "// snippet.hide" {
                shown = false
            } else if line == "// snippet.show" {
                shown = true
            } else if shown, !line.isEmpty {
                visible.append(line)
            }
        }
        return visible
    }
}
