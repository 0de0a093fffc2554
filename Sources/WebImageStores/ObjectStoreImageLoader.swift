import Foundation
import WebImage

/// Loads `SCHEME://bucket/key` sources from an ``ObjectStoreReading`` store, as imgproxy's `gs://`, `abs://` and
/// `swift://` sources: the bucket (or container) is the URL's host, the key its path without the leading `/`
/// (percent-decoded), the query the URL's. A bucket `buckets` refuses is `.forbiddenSource` before any request; a
/// missing object a 404 `WebImageError` (`badStatus`), answered as an origin 404. The store's `Content-Type`,
/// `ETag`, `Last-Modified`, `Cache-Control` and `Expires` are passed on as an HTTP origin's. The loader does not shut the store down: its owner
/// does.
public struct ObjectStoreImageLoader: ImageLoading {
    /// The URL scheme read (`gs`).
    public let scheme: String
    /// The store's name in errors (`GCS`).
    public let storeName: String
    /// The store.
    public let store: any ObjectStoreReading
    /// The buckets (containers) that may be read.
    public let buckets: S3BucketPolicy

    /// A loader of `scheme://` URLs from `store`, named `storeName` in errors, reading the buckets `buckets` allows.
    public init(
        scheme: String, storeName: String, store: any ObjectStoreReading, buckets: S3BucketPolicy = S3BucketPolicy()
    ) {
        self.scheme = scheme.lowercased()
        self.storeName = storeName
        self.store = store
        self.buckets = buckets
    }

    public func canLoad(_ url: URL) -> Bool { url.scheme?.lowercased() == scheme }

    public func load(
        _ request: ImageLoadRequest, progress: ImageLoadProgressHandler?, partialData: ImagePartialDataHandler?
    ) async throws(WebImageError) -> ImageResponse {
        let url = request.url
        let (bucket, key) = try buckets.location(of: url, storeName: storeName)
        let maxSize = request.options.maxBodySize
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.query
        guard let object = try await store.object(bucket: bucket, key: key, query: query, maxSize: maxSize) else {
            throw WebImageError(.badStatus, "no object \(key) in \(bucket)", url: url, httpStatus: 404)
        }
        return try object.response(to: url, maxSize: maxSize)
    }
}
