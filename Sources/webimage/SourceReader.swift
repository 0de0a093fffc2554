import Foundation
import WebImage

/// Reads the bytes of a source with the library's loaders: a path, a `file://`, `http(s)://` or `data:` URL.
enum SourceReader {
    static func read(_ source: String, timeout: Double?) async throws(WebImageError) -> Data {
        guard let url = FileImageLoader.url(for: source) ?? URL(string: source), url.scheme != nil else {
            throw WebImageError(.invalidSource, "'\(source)' is neither a path nor a URL")
        }
        var options = ImageLoaderOptions()
        if let timeout { options.timeout = .milliseconds(Int((timeout * 1000).rounded())) }
        let http = HTTPImageLoader.canLoadScheme(of: url) ? HTTPImageLoader() : nil
        if http == nil { options.responseValidator = .acceptAll }  // local bytes: let the decoder judge them
        var loaders: [any ImageLoading] = [DataURLImageLoader(), FileImageLoader()]
        if let http { loaders.insert(http, at: 0) }
        let result: Result<ImageResponse, WebImageError>
        do throws(WebImageError) {
            result = .success(try await ImageLoaders(loaders).load(url, options: options))
        } catch {
            result = .failure(error)
        }
        try? await http?.shutdown()
        return try result.get().data
    }
}
