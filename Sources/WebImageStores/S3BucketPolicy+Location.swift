import Foundation
import WebImage

extension S3BucketPolicy {
    /// The bucket (the host) and key (the path without its leading `/`, percent-decoded) of a `SCHEME://bucket/key`
    /// source of the store named `storeName` in errors: `.invalidSource` without either, `.forbiddenSource` for a
    /// bucket this policy refuses, before any request.
    func location(of url: URL, storeName: String) throws(WebImageError) -> (bucket: String, key: String) {
        let scheme = url.scheme?.lowercased() ?? ""
        guard let bucket = url.host, !bucket.isEmpty else {
            throw WebImageError(.invalidSource, "\(storeName) sources are \(scheme)://bucket/key", url: url)
        }
        guard allows(bucket) else {
            throw WebImageError(.forbiddenSource, "access to the \(storeName) bucket \(bucket) is denied", url: url)
        }
        let key = String(url.path.drop { $0 == "/" })
        guard !key.isEmpty else {
            throw WebImageError(.invalidSource, "the \(storeName) source names no key", url: url)
        }
        return (bucket, key)
    }
}
