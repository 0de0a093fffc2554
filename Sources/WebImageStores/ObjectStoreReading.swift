import Foundation
import WebImage

/// A store whose objects are read by bucket (or container) and key: ``GCSClient``, ``AzureBlobClient``,
/// ``SwiftClient``, read by an ``ObjectStoreImageLoader``.
public protocol ObjectStoreReading: Sendable {
    /// The object at `key` in `bucket`, `nil` when the store has none. `query` is the source URL's query (a GCS
    /// generation), `nil` when it has none; `maxSize` is the largest object read.
    func object(
        bucket: String, key: String, query: String?, maxSize: Int
    ) async throws(WebImageError) -> S3Object?

    /// Closes the store's connections.
    func shutdown() async throws
}
