import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import WebImage

/// A small S3 client (path-style or virtual-hosted URLs, AWS Signature V4, V4A for Multi-Region Access Points and
/// Outposts access points, session tokens) over AsyncHTTPClient: GET, HEAD, PUT (optionally only if absent) and DELETE of whole objects.
///
/// Errors are `WebImageError`s: a missing object is `nil` (GET, HEAD) rather than an error; `403` and other 4xx are
/// `.badStatus` (permanent), `5xx` `.badStatus` (transient), each with an ``S3StoreError`` as its `underlying` error
/// naming the store's error code and where the credentials came from; a request past ``Configuration/timeout``
/// `.timedOut`, a refused or broken connection `.connectionFailed`, a body past ``Configuration/maxObjectSize``
/// `.bodyTooLarge`. The secret and the session token never appear in an error or a log.
///
/// ```swift
/// let client = S3Client(configuration: .init(endpoint: URL(string: "http://127.0.0.1:8333")!, credentials: creds))
/// let stored = try await client.put(bucket: "images", key: "a.jpg", data: bytes, onlyIfAbsent: true)
/// let object = try await client.get(bucket: "images", key: "a.jpg")
/// try await client.shutdown()
/// ```
///
/// ``S3Environment`` makes a configuration as the AWS tools would (variables, shared files, profiles).
public final class S3Client: Sendable {
    /// Where and how to reach the store.
    public struct Configuration: Sendable {
        /// The store's base URL (`http://127.0.0.1:8333`, `https://s3.eu-west-1.amazonaws.com`).
        public var endpoint: URL
        /// The signing region; default `us-east-1`.
        public var region: String
        /// The credentials that sign every request.
        public var credentials: S3Credentials
        /// Where ``credentials`` came from, named in errors; default ``S3CredentialSource/configuration``.
        public var credentialSource: S3CredentialSource
        /// How buckets are addressed; default ``S3Addressing/auto`` (virtual-hosted on AWS, path-style elsewhere).
        public var addressing: S3Addressing
        /// How long one request may take, body included; default 300 ms (a cache tier must be fast or skipped).
        public var timeout: Duration
        /// The largest object read; default 64 MiB.
        public var maxObjectSize: Int
        /// A role to assume with ``credentials``, whose temporary credentials then sign every request; default none.
        public var assumeRole: S3AssumeRole?

        /// Connects here instead of to the request's host, which the `Host` header and the signature keep (tests of
        /// virtual-hosted addressing on 127.0.0.1, where `BUCKET.localhost` does not resolve).
        var connectHost: String?
        /// Connects to this URL's scheme, host and port instead of a Multi-Region Access Point's global host, which
        /// the `Host` header and the signature keep (tests, which never reach AWS).
        var connectEndpoint: URL?

        /// Settings for `endpoint`.
        public init(
            endpoint: URL, region: String = "us-east-1", credentials: S3Credentials,
            credentialSource: S3CredentialSource = .configuration, addressing: S3Addressing = .auto,
            timeout: Duration = .milliseconds(300), maxObjectSize: Int = 64 << 20
        ) {
            self.endpoint = endpoint
            self.region = region
            self.credentials = credentials
            self.credentialSource = credentialSource
            self.addressing = addressing
            self.timeout = timeout
            self.maxObjectSize = maxObjectSize
        }
    }

    /// The settings this client was made with.
    public let configuration: Configuration
    private let assumedRole: AssumedRoleCredentials?
    private let client: HTTPClient

    /// A client with its own connection pool on the shared NIO event loop group; call ``shutdown()`` when done.
    public init(configuration: Configuration) {
        self.configuration = configuration
        assumedRole = configuration.assumeRole.map {
            AssumedRoleCredentials(role: $0, base: configuration.credentials, timeout: configuration.timeout)
        }
        var http = HTTPClient.Configuration()
        http.redirectConfiguration = .disallow
        http.decompression = .disabled
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: http)
    }

    /// The object at `key`, or `nil` when the store has none.
    public func get(bucket: String, key: String) async throws(WebImageError) -> S3Object? {
        let response = try await send("GET", bucket: bucket, key: key)
        if response.status == 404 { return nil }
        try check(response, operation: "GET", key: key)
        var metadata: [String: String] = [:]
        for (name, value) in response.headers where name.lowercased().hasPrefix("x-amz-meta-") {
            metadata[String(name.lowercased().dropFirst("x-amz-meta-".count))] = value
        }
        return S3Object(
            data: response.body, contentType: response.headers.first(name: "content-type"),
            etag: response.headers.first(name: "etag"), lastModified: response.headers.first(name: "last-modified"),
            metadata: metadata, cacheControl: response.headers.first(name: "cache-control"),
            expires: response.headers.first(name: "expires"))
    }

    /// Whether the store has an object at `key`.
    public func exists(bucket: String, key: String) async throws(WebImageError) -> Bool {
        let response = try await send("HEAD", bucket: bucket, key: key)
        if response.status == 404 { return false }
        try check(response, operation: "HEAD", key: key)
        return true
    }

    /// Whether `bucket` exists and these credentials may use it.
    public func bucketExists(_ bucket: String) async throws(WebImageError) -> Bool {
        let response = try await send("HEAD", bucket: bucket, key: nil)
        if response.status == 404 { return false }
        try check(response, operation: "HeadBucket", key: bucket)
        return true
    }

    /// The keys of every object whose key starts with `prefix` (ListObjectsV2, following continuation tokens).
    public func list(bucket: String, prefix: String) async throws(WebImageError) -> [String] {
        var keys: [String] = []
        var token: String?
        repeat {
            var query = [("list-type", "2"), ("prefix", prefix)]
            if let token { query.append(("continuation-token", token)) }
            let response = try await send("GET", bucket: bucket, key: nil, query: query)
            try check(response, operation: "ListObjectsV2", key: prefix)
            let page = S3ListPage(xml: response.body)
            keys += page.keys
            token = page.nextToken
        } while token != nil
        return keys
    }

    /// Stores `data` at `key`. With `onlyIfAbsent`, the write is conditional (`If-None-Match: *`): the first writer
    /// wins and a later one gets `false` (412) without replacing it. Returns whether this call stored the object.
    /// `metadata` becomes `x-amz-meta-*` headers, returned by ``get(bucket:key:)`` in ``S3Object/metadata``;
    /// `cacheControl` and `expires` are stored as the object's `Cache-Control` and `Expires`.
    @discardableResult
    public func put(
        bucket: String, key: String, data: Data, contentType: String? = nil, metadata: [String: String] = [:],
        onlyIfAbsent: Bool = false, cacheControl: String? = nil, expires: String? = nil
    ) async throws(WebImageError) -> Bool {
        var headers: [(String, String)] = []
        if let contentType { headers.append(("Content-Type", contentType)) }
        if let cacheControl { headers.append(("Cache-Control", cacheControl)) }
        if let expires { headers.append(("Expires", expires)) }
        for (name, value) in metadata.sorted(by: { $0.key < $1.key }) {
            headers.append(("x-amz-meta-" + name.lowercased(), value))
        }
        if onlyIfAbsent { headers.append(("If-None-Match", "*")) }
        let response = try await send("PUT", bucket: bucket, key: key, body: data, headers: headers)
        if response.status == 412 && onlyIfAbsent { return false }
        try check(response, operation: "PUT", key: key)
        return true
    }

    /// Removes the object at `key`; removing a missing object succeeds.
    public func delete(bucket: String, key: String) async throws(WebImageError) {
        let response = try await send("DELETE", bucket: bucket, key: key)
        if response.status == 404 { return }
        try check(response, operation: "DELETE", key: key)
    }

    /// The credentials that sign this client's next request: the assumed role's, else ``Configuration/credentials``.
    func signingCredentials() async throws(WebImageError) -> S3Credentials {
        try await assumedRole?.current() ?? configuration.credentials
    }

    /// Closes the connection pools (S3's and STS's).
    public func shutdown() async throws {
        try await assumedRole?.shutdown()
        try await client.shutdown()
    }

    private struct Response {
        let status: Int
        let headers: HTTPHeaders
        let body: Data
    }

    /// Creates `bucket`; for tests: the server never creates buckets.
    func createBucket(_ bucket: String) async throws(WebImageError) {
        let response = try await send("PUT", bucket: bucket, key: nil)
        try check(response, operation: "CreateBucket", key: bucket)
    }

    private func send(
        _ method: String, bucket: String, key: String?, query: [(String, String)] = [], body: Data? = nil,
        headers extra: [(String, String)] = []
    ) async throws(WebImageError) -> Response {
        let target: S3RequestTarget
        do {
            target = try S3RequestTarget(
                endpoint: configuration.endpoint, addressing: configuration.addressing, bucket: bucket, key: key,
                region: configuration.region, connectHost: configuration.connectHost,
                connectEndpoint: configuration.connectEndpoint)
        } catch { throw WebImageError(.invalidArgument, error.description, underlying: error) }
        let key = key ?? bucket
        let queryString = query.isEmpty ? "" : "?" + SignatureV4.canonicalQuery(query)
        var request = HTTPClientRequest(url: target.url + queryString)
        request.method = HTTPMethod(rawValue: method)
        let payloadHash = body.map { Hex.string(SHA256.hash(data: $0)) } ?? SignatureV4.emptyPayloadHash
        let credentials = try await signingCredentials()
        let signed =
            if let regionSet = target.regionSet {
                try SignatureV4A(credentials: credentials, regionSet: regionSet, service: target.signingService)
                    .signedHeaders(
                        method: method, path: target.path, query: query, headers: [("host", target.host)] + extra,
                        payloadHash: payloadHash, date: Date())
            } else {
                SignatureV4(credentials: credentials, region: configuration.region).signedHeaders(
                    method: method, path: target.path, query: query, headers: [("host", target.host)] + extra,
                    payloadHash: payloadHash, date: Date())
            }
        request.headers.add(name: "Host", value: target.host)
        for (name, value) in extra + signed { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        do {
            let response = try await client.execute(request, timeout: .init(configuration.timeout))
            let bytes = try await response.body.collect(upTo: configuration.maxObjectSize)
            let body = Data(bytes.readableBytesView)
            return Response(status: Int(response.status.code), headers: response.headers, body: body)
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout {
            throw WebImageError(.timedOut, "S3 \(method) \(key) took longer than \(configuration.timeout)")
        } catch let error as NIOTooManyBytesError {
            throw WebImageError(
                .bodyTooLarge, "S3 object \(key) is larger than \(configuration.maxObjectSize) bytes",
                underlying: error)
        } catch {
            throw WebImageError(.connectionFailed, "S3 \(method) \(key) failed: \(error)", underlying: error)
        }
    }

    /// Throws for an answer other than 2xx, naming the store's error code and, for 401 and 403, where the
    /// credentials came from.
    private func check(_ response: Response, operation: String, key: String) throws(WebImageError) {
        guard !(200..<300).contains(response.status) else { return }
        let error = S3StoreError(
            status: response.status, code: S3StoreError.code(in: response.body), operation: operation, key: key,
            credentialSource: configuration.credentialSource, accessKey: configuration.credentials.accessKey)
        throw WebImageError(.badStatus, error.description, httpStatus: response.status, underlying: error)
    }
}
