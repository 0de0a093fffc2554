import Foundation
import Testing
import WebImageTesting

/// One entry of the conformance corpus's `manifest.json` (see `Tests/Fixtures/corpus/README.md`).
struct CorpusEntry: Decodable, Sendable, CustomTestStringConvertible {
    let file: String
    let format: String
    let expect: String
    let tolerance: String?
    let frames: Int?
    let reference: String?
    let width: Int?
    let height: Int?

    var testDescription: String { file }

    /// Allowed (mean, max) premultiplied difference.
    var allowed: (mean: Double, max: Int) {
        switch tolerance {
        case "lossy": (1.5, 48)
        case "cmyk": (20, 255)
        default: (0.5, 2)
        }
    }

    var url: URL { Fixtures.corpus.appendingPathComponent(file) }

    static let all: [CorpusEntry] = {
        struct Manifest: Decodable { let entries: [CorpusEntry] }
        let url = Fixtures.corpus.appendingPathComponent("manifest.json")
        guard let data = try? Data(contentsOf: url) else { return [] }
        return (try? JSONDecoder().decode(Manifest.self, from: data).entries) ?? []
    }()
}
