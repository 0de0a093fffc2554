import Foundation
import NIOConcurrencyHelpers
import WebImage

/// Reads OpenStack Swift objects (`GET STORAGE_URL/CONTAINER/OBJECT` with `X-Auth-Token`), as imgproxy's
/// `IMGPROXY_USE_SWIFT` does: ``authenticate()`` signs in (imgproxy does it at start, and a failure stops it); a
/// request answered 401 signs in again once and is retried. The object's `ETag`, `Last-Modified`, `Content-Type`,
/// `Cache-Control` and `Expires` are the store's (imgproxy passes every header of the object on). A missing object or container is `nil`; another answer than 2xx a `.badStatus` `WebImageError`.
public final class SwiftClient: ObjectStoreReading {
    /// How the client signs in.
    public let authentication: SwiftAuthentication
    private let timeout: Duration
    private let http: StoreHTTPClient
    private let session = NIOLockedValueBox<SwiftAuthentication.Session?>(nil)

    /// A client signing in with `authentication`; connections must open within `connectTimeout`, requests end within
    /// `timeout`.
    public init(authentication: SwiftAuthentication, connectTimeout: Duration, timeout: Duration) {
        self.authentication = authentication
        self.timeout = timeout
        http = StoreHTTPClient(store: "Swift", connectTimeout: connectTimeout)
    }

    /// Signs in now (at start), replacing the session.
    public func authenticate() async throws(WebImageError) {
        let fresh = try await authentication.signIn(http: http, timeout: timeout)
        session.withLockedValue { $0 = fresh }
    }

    public func object(
        bucket: String, key: String, query: String?, maxSize: Int
    ) async throws(WebImageError) -> S3Object? {
        var response = try await get(bucket: bucket, key: key, maxSize: maxSize, fresh: false)
        if response.status == 401 {
            response = try await get(bucket: bucket, key: key, maxSize: maxSize, fresh: true)
        }
        if response.status == 404 { return nil }
        guard (200..<300).contains(response.status) else {
            throw WebImageError(
                .badStatus, "Swift GET \(bucket)/\(key) answered \(response.status)", httpStatus: response.status)
        }
        return S3Object(
            data: response.body, contentType: response.headers.first(name: "content-type"),
            etag: response.headers.first(name: "etag"), lastModified: response.headers.first(name: "last-modified"),
            cacheControl: response.headers.first(name: "cache-control"),
            expires: response.headers.first(name: "expires"))
    }

    public func shutdown() async throws { try await http.shutdown() }

    /// The object's answer with the current session, or a new one when `fresh` or there is none.
    private func get(
        bucket: String, key: String, maxSize: Int, fresh: Bool
    ) async throws(WebImageError) -> StoreHTTPClient.Response {
        var current = fresh ? nil : session.withLockedValue { $0 }
        if current == nil {
            try await authenticate()
            current = session.withLockedValue { $0 }
        }
        guard let current else { throw WebImageError(.connectionFailed, "Swift: no session") }
        var url = current.storageURL
        while url.hasSuffix("/") { url.removeLast() }
        url +=
            "/" + StoreHTTPClient.escape(bucket) + "/"
            + key.split(separator: "/", omittingEmptySubsequences: false).map { StoreHTTPClient.escape(String($0)) }
            .joined(separator: "/")
        return try await http.send(
            .GET, url, headers: [("X-Auth-Token", current.token)], timeout: timeout, maxSize: maxSize,
            operation: "GET \(bucket)/\(key)")
    }
}
