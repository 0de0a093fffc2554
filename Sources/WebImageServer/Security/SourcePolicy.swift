import Foundation
import WebImageStores

/// Which sources the server fetches: `http`/`https`, `local://` under the root only, `s3://` when an S3 source store
/// is configured and in a bucket it may read, `gs://`, `abs://` and `swift://` likewise for their stores,
/// `--allowed-sources` prefixes (with imgproxy's `*`).
struct SourcePolicy: Sendable {
    let allowedSources: [SourcePattern]
    /// The resolved (symlink-free) local root.
    let localRoot: URL?
    /// The buckets `s3://bucket/key` sources may name; `nil` when S3 sources are off (no `--s3-source-endpoint`).
    let s3Buckets: S3BucketPolicy?
    /// The buckets of each other object store's sources, by scheme (`gs`); a scheme not here is refused.
    let storeBuckets: [String: (name: String, buckets: S3BucketPolicy)]
    /// Where the query of a `local://` or object store source starts; empty: nowhere.
    let querySeparator: String

    init(
        allowedSources: [String], localRoot: URL?, querySeparator: String = "?", s3Buckets: S3BucketPolicy? = nil,
        objectStores: [ObjectStoreImageLoader] = []
    ) {
        self.allowedSources = allowedSources.map(SourcePattern.init)
        self.querySeparator = querySeparator
        self.localRoot = localRoot.map { $0.standardizedFileURL.resolvingSymlinksInPath() }
        self.s3Buckets = s3Buckets
        var stores: [String: (name: String, buckets: S3BucketPolicy)] = [:]
        for store in objectStores { stores[store.scheme] = (store.storeName, store.buckets) }
        storeBuckets = stores
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
        case "gs", "abs", "swift":
            guard let store = storeBuckets[scheme] else { throw .invalid("\(scheme):// sources are not enabled") }
            let url = try objectURL(source, keepingQuery: true)
            guard let bucket = url.host, !bucket.isEmpty, url.path.count > 1 else {
                throw .invalid("invalid \(store.name) source")
            }
            guard store.buckets.allows(bucket) else { throw .invalid("access to the \(store.name) bucket is denied") }
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

    /// `SCHEME://bucket/key` with the key up to the query separator, its `?` and `#` part of the key; with
    /// `keepingQuery`, what follows the separator becomes the URL's query (a GCS generation), percent-encoded.
    private func objectURL(_ source: String, keepingQuery: Bool = false) throws(ImageServerError) -> URL {
        guard let schemeEnd = source.range(of: "://") else { throw .invalid("invalid source URL") }
        let scheme = source[..<schemeEnd.lowerBound].lowercased()
        let rest = String(source[schemeEnd.upperBound...])
        let key = withoutQuery(rest).replacingOccurrences(of: "?", with: "%3F").replacingOccurrences(
            of: "#", with: "%23")
        var query = ""
        if keepingQuery, !querySeparator.isEmpty, let range = rest.range(of: querySeparator) {
            let text = String(rest[range.upperBound...])
            let unreserved = CharacterSet(
                charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
            query = "?" + (text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "")
        }
        guard let url = URL(string: scheme + "://" + key + query) else { throw .invalid("invalid source URL") }
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
