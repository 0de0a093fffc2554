import Foundation
import WebImageTesting

/// The bytes of `images/NAME` in the vendored corpus.
func corpusImage(_ name: String) throws -> Data {
    try Data(contentsOf: Fixtures.corpus.appendingPathComponent("images").appendingPathComponent(name))
}
