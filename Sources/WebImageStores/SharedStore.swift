import Foundation
import Logging
import WebImage

/// The shared cache tier of a cluster: originals and processed results in one S3-compatible bucket, read after a
/// node's own memory and disk and before the origin.
///
/// Layout below the location's prefix (SHA-256 in hex):
/// - `originals/<sha256(source)>`: a source's bytes, with its `Content-Type`, the origin's `Last-Modified` and the
///   time it stops being fresh (`x-amz-meta-expires`, seconds since 1970).
/// - `originals/<sha256(source)>.lease`: held by the node downloading the source (see ``SharedStoreLoader``).
/// - `results/<sha256(source)>/<sha256(identity)>`: one processed result; the source's digest as a folder lets a purge
///   list and delete every result of a source without an index object that nodes would have to update together.
///
/// The tier never fails a request: an operation that errs or passes the client's timeout is counted (``errorCounts``,
/// which the server exports as `webimage_shared_store_errors_total{operation}`), logged at warning level without
/// credentials, and treated as a miss or a skipped write.
public final class SharedStore: Sendable {
    /// What the tier answers for a source's original.
    public struct Original: Sendable {
        /// The source's bytes.
        public let data: Data
        /// The `Content-Type` the origin sent.
        public let contentType: String?
        /// The origin's `Last-Modified`, when it sent one.
        public let lastModified: String?
        /// The origin's `ETag`, when it sent one.
        public let etag: String?
        /// The origin's `Cache-Control`, when it sent one.
        public let cacheControl: String?
        /// The origin's `Expires`, when it sent one.
        public let expires: String?
        /// Whether the copy is still within its time to live; a stale copy is refetched from the origin.
        public let isFresh: Bool
    }

    /// The bucket and key prefix of the tier.
    public let location: SharedStoreLocation
    /// The S3 client that reaches the store (its timeout bounds every operation).
    public let client: S3Client
    private let logger: Logger
    /// Errors by operation since the start.
    private let errors = Locked<[String: Int]>([:])

    /// A tier at `location` reached through `client`.
    public init(location: SharedStoreLocation, client: S3Client, logger: Logger = Logger(label: "webimage.shared")) {
        self.location = location
        self.client = client
        self.logger = logger
    }

    /// The stored result `identity` of `source`, or `nil` (missing, or the store failed).
    public func result(source: String, identity: String) async -> S3Object? {
        await attempt("get") { () async throws(WebImageError) in
            try await client.get(bucket: location.bucket, key: resultKey(source: source, identity: identity))
        } ?? nil
    }

    /// Stores a result unless one is stored already (the first writer wins); returns whether this call wrote it.
    @discardableResult
    public func storeResult(
        _ data: Data, contentType: String?, metadata: [String: String] = [:], source: String, identity: String
    ) async -> Bool {
        await attempt("put") { () async throws(WebImageError) in
            try await client.put(
                bucket: location.bucket, key: resultKey(source: source, identity: identity), data: data,
                contentType: contentType, metadata: metadata, onlyIfAbsent: true)
        } ?? false
    }

    /// The stored original of `source`, fresh or stale, or `nil`.
    public func original(source: String, now: Date = Date()) async -> Original? {
        guard
            let object = await attempt(
                "get",
                { () async throws(WebImageError) in
                    try await client.get(bucket: location.bucket, key: originalKey(source))
                }) ?? nil
        else { return nil }
        let expires = object.metadata["expires"].flatMap(Double.init) ?? 0
        return Original(
            data: object.data, contentType: object.contentType, lastModified: object.metadata["origin-last-modified"],
            etag: object.metadata["origin-etag"], cacheControl: object.metadata["origin-cache-control"],
            expires: object.metadata["origin-expires"], isFresh: expires > now.timeIntervalSince1970)
    }

    /// Stores the original of `source` with the origin's `lastModified`, `etag`, `cacheControl` and `expires`,
    /// fresh for `lifetime`, replacing a stale copy.
    public func storeOriginal(
        _ data: Data, contentType: String?, lastModified: String?, etag: String? = nil, cacheControl: String? = nil,
        expires: String? = nil, lifetime: Duration, source: String, now: Date = Date()
    ) async {
        // At most ten years, so no lifetime an origin sends can overflow the sum.
        let seconds = min(max(lifetime.components.seconds, 0), 10 * 365 * 86_400)
        var metadata = ["expires": String(Int64(now.timeIntervalSince1970) + seconds)]
        if let lastModified { metadata["origin-last-modified"] = lastModified }
        if let etag { metadata["origin-etag"] = etag }
        if let cacheControl { metadata["origin-cache-control"] = cacheControl }
        if let expires { metadata["origin-expires"] = expires }
        _ = await attempt("put") { () async throws(WebImageError) in
            try await client.put(
                bucket: location.bucket, key: originalKey(source), data: data, contentType: contentType,
                metadata: metadata)
        }
    }

    /// Takes the download lease of `source` for `duration`: `true` when this caller holds it (it was free, or the
    /// holder's lease expired), `false` when another node holds it. A store that fails counts as free, so a node never
    /// waits on a tier it cannot reach.
    public func acquireLease(source: String, duration: Duration, now: Date = Date()) async -> Bool {
        let key = originalKey(source) + ".lease"
        let expiry = String(now.timeIntervalSince1970 + Double(min(max(duration.components.seconds, 1), 86_400)))
        for _ in 0..<2 {
            let stored = await attempt("lease") { () async throws(WebImageError) in
                try await client.put(bucket: location.bucket, key: key, data: Data(expiry.utf8), onlyIfAbsent: true)
            }
            guard let stored else { return true }
            if stored { return true }
            // Held: take it over only when the holder's lease has expired (a node that died mid-download).
            guard
                let held = await attempt(
                    "lease",
                    { () async throws(WebImageError) in
                        try await client.get(bucket: location.bucket, key: key)
                    })
            else { return true }
            guard let held, let until = Double(String(decoding: held.data, as: UTF8.self)) else { continue }
            if until > now.timeIntervalSince1970 { return false }
            _ = await attempt("lease") { () async throws(WebImageError) in
                try await client.delete(bucket: location.bucket, key: key)
            }
        }
        return false
    }

    /// Whether a node holds the download lease of `source`.
    public func isLeased(source: String) async -> Bool {
        await attempt("lease") { () async throws(WebImageError) in
            try await client.exists(bucket: location.bucket, key: originalKey(source) + ".lease")
        } ?? false
    }

    /// Gives the download lease of `source` back.
    public func releaseLease(source: String) async {
        _ = await attempt("lease") { () async throws(WebImageError) in
            try await client.delete(bucket: location.bucket, key: originalKey(source) + ".lease")
        }
    }

    /// Deletes the original of `source` and every result made from it; returns how many objects were removed.
    /// Unlike the other operations, a failing store is an error here: a purge that did not happen must say so.
    public func purge(source: String) async throws(WebImageError) -> Int {
        let folder = location.key("results/\(Self.digest(source))/")
        var keys = try await client.list(bucket: location.bucket, prefix: folder)
        if try await client.exists(bucket: location.bucket, key: originalKey(source)) {
            keys.append(originalKey(source))
        }
        for key in keys { try await client.delete(bucket: location.bucket, key: key) }
        return keys.count
    }

    /// Whether the bucket exists, `nil` when the store cannot be reached; the server warns at start when it does not.
    public func bucketExists() async -> Bool? {
        await attempt("head") { () async throws(WebImageError) in try await client.bucketExists(location.bucket) }
    }

    /// How many operations have failed since the start, by operation (`get`, `put`, `lease`, `head`).
    public var errorCounts: [String: Int] { errors.withLock { $0 } }

    func errorCount(_ operation: String) -> Int { errorCounts[operation] ?? 0 }

    func originalKey(_ source: String) -> String { location.key("originals/" + Self.digest(source)) }

    func resultKey(source: String, identity: String) -> String {
        location.key("results/\(Self.digest(source))/\(Self.digest(identity))")
    }

    static func digest(_ text: String) -> String { Hex.sha256(text) }

    /// Runs one store operation; a failure is counted, logged and answered with `nil`.
    private func attempt<T: Sendable>(
        _ operation: String, _ work: () async throws(WebImageError) -> T
    ) async -> T? {
        do {
            return try await work()
        } catch {
            errors.withLock { $0[operation, default: 0] += 1 }
            var metadata: Logger.Metadata = ["error": "\(error.code)"]
            // A refused key names where the credentials came from (never the secret), as the fix is there.
            if let refusal = error.underlying as? S3StoreError, refusal.isAuthorizationFailure {
                metadata["detail"] = "\(refusal)"
            }
            logger.warning("shared store \(operation) failed", metadata: metadata)
            return nil
        }
    }
}
