import Foundation
import WebImage

/// Reads the bytes of a local source: a path or a `file://` URL.
enum SourceReader {
    static func read(_ source: String) throws(WebImageError) -> Data {
        let url: URL
        if source.hasPrefix("file://") {
            guard let parsed = URL(string: source), parsed.isFileURL else {
                throw WebImageError(.invalidSource, "'\(source)' is not a valid file URL")
            }
            url = parsed
        } else if source.contains("://") {
            throw WebImageError(.invalidSource, "'\(source)' is not a local file; only paths and file:// URLs load")
        } else {
            url = URL(fileURLWithPath: source)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw WebImageError(.fileNotFound, "no such file", url: url)
        }
        guard !isDirectory.boolValue else { throw WebImageError(.fileUnreadable, "is a directory", url: url) }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw WebImageError(.fileUnreadable, "cannot read: \(error.localizedDescription)", url: url, underlying: error)
        }
    }
}
