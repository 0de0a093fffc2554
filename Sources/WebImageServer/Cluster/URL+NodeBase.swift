import Foundation

extension URL {
    /// A node's URL (`--peer`, `--self`) as the base its paths are appended to: without a trailing `/`.
    var baseString: String {
        let text = absoluteString
        return text.hasSuffix("/") ? String(text.dropLast()) : text
    }
}
