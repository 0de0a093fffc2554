import Foundation
import WebImageStores

/// Which sources the server fetches: `http`/`https`, `local://` under the root only, `s3://` when an S3 source store
/// is configured and in a bucket it may read, `--allowed-sources` prefixes (with imgproxy's `*`).
struct SourcePolicy: Sendable {
    let allowedSources: [SourcePattern]
    /// The resolved (symlink-free) local root.
    let localRoot: URL?
    /// The buckets `s3://bucket/key` sources may name; `nil` when S3 sources are off (no `--s3-source-endpoint`).
    let s3Buckets: S3BucketPolicy?
    /// Where the query of a `local://` or `s3://` source starts; empty: nowhere.
    let querySeparator: String

    init(allowedSources: [String], localRoot: URL?, querySeparator: String = "?", s3Buckets: S3BucketPolicy? = nil) {
        self.allowedSources = allowedSources.map(SourcePattern.init)
        self.querySeparator = querySeparator
        self.localRoot = localRoot.map { $0.standardizedFileURL.resolvingSymlinksInPath() }
        self.s3Buckets = s3Buckets
    }

    /// The URL to load for `source`, or a 404 naming the rule that refuses it.
    func url(for source: String) throws(ImageServerError) -> URL {
        if !allowedSources.isEmpty, !allowedSources.contains(where: { $0.matches(source) }) {
            throw .invalid("source is not allowed")
        }
        guard let url = URL(string: source), let scheme = url.scheme?.lowercased() else {
            throw .invalid("invalid source URL")
        }
        switch scheme {
        case "http", "https":
            guard let host = url.host, !host.isEmpty else { throw .invalid("invalid source URL") }
            return url
        case "local":
            return try localURL(source)
        case "s3":
            guard let buckets = s3Buckets else { throw .invalid("S3 sources are not enabled") }
            let url = try objectURL(source)
            guard let bucket = url.host, !bucket.isEmpty, url.path.count > 1 else {
                throw .invalid("invalid S3 source")
            }
            // imgproxy refuses the bucket as a source it cannot reach: 404.
            guard buckets.allows(bucket) else { throw .invalid("access to the S3 bucket is denied") }
            return url
        default:
            throw .invalid("unknown source scheme \(scheme.prefix(16))")
        }
    }

    /// `text` up to the query separator, as imgproxy cuts a `local://` path or an `s3://` key (a `#` is part of
    /// it, not a fragment).
    private func withoutQuery(_ text: String) -> String {
        guard !querySeparator.isEmpty, let range = text.range(of: querySeparator) else { return text }
        return String(text[..<range.lowerBound])
    }

    /// `s3://bucket/key` with the key up to the query separator, its `?` and `#` part of the key.
    private func objectURL(_ source: String) throws(ImageServerError) -> URL {
        let key = withoutQuery(String(source.dropFirst("s3://".count)))
            .replacingOccurrences(of: "?", with: "%3F").replacingOccurrences(of: "#", with: "%23")
        guard let url = URL(string: "s3://" + key) else { throw .invalid("invalid S3 source") }
        return url
    }

    /// `local:///path` as a file under the root: no `..`, no encoded traversal, no symlink leading outside.
    private func localURL(_ source: String) throws(ImageServerError) -> URL {
        guard let root = localRoot else { throw .invalid("local sources are not enabled") }
        let path = withoutQuery(String(source.dropFirst("local://".count)))
        guard let decoded = path.removingPercentEncoding, !decoded.contains("\0") else {
            throw .invalid("invalid local path")
        }
        let components = decoded.split(separator: "/", omittingEmptySubsequences: true)
        guard !components.isEmpty, !components.contains(where: { $0 == ".." || $0 == "." }) else {
            throw .invalid("local path is outside the root")
        }
        let file = components.reduce(root) { $0.appendingPathComponent(String($1)) }
        let resolved = file.resolvingSymlinksInPath().standardizedFileURL
        let rootPath = root.path.hasSuffix("/") ? root.path : root.path + "/"
        guard resolved.path.hasPrefix(rootPath) else { throw .invalid("local path is outside the root") }
        return resolved
    }
}
