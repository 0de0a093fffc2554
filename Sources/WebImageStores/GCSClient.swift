import Foundation
import NIOConcurrencyHelpers
import WebImage

/// Reads Google Cloud Storage objects through the JSON API (`GET ENDPOINT/b/BUCKET/o/OBJECT?alt=media`), as
/// imgproxy's `IMGPROXY_USE_GCS` does: with ``GoogleCredentials`` (a service-account key, a user's refresh token,
/// the metadata server), each request carries an OAuth 2.0 token of the `devstorage.read_only` scope (got once and
/// cached, `AccessTokenCache`); without them, requests are not authenticated (an emulator, public buckets). A numeric query is the object's generation.
///
/// As imgproxy's, the `ETag` is made from the object's CRC32C and modification time (12 bytes in hexadecimal), and
/// `Last-Modified` is the store's. A missing object or bucket is `nil`; another answer than 2xx a `.badStatus`
/// `WebImageError` with the store's status.
public final class GCSClient: ObjectStoreReading {
    /// Google's JSON API endpoint, used when none is set.
    public static let defaultEndpoint = URL(string: "https://storage.googleapis.com/storage/v1/")!
    /// The scope of the tokens asked for.
    static let scope = "https://www.googleapis.com/auth/devstorage.read_only"

    /// The JSON API base URL (`…/storage/v1/`).
    public let endpoint: URL
    private let timeout: Duration
    private let http: StoreHTTPClient
    /// Where the tokens come from; `nil` when requests are not authenticated.
    public let credentials: GoogleCredentials?
    private let tokens: AccessTokenCache?
    /// Set when the credentials gave no token at start (``probeCredentials(timeout:)``): requests are anonymous.
    private let anonymous = NIOLockedValueBox(false)

    /// A client of `endpoint` (the JSON API's base URL), authenticated with `account` when given; each request
    /// (the token exchange included) must end within `timeout`.
    public convenience init(
        endpoint: URL = GCSClient.defaultEndpoint, account: GoogleServiceAccount?, timeout: Duration
    ) {
        self.init(endpoint: endpoint, credentials: account.map { .serviceAccount($0) }, timeout: timeout)
    }

    /// A client of `endpoint` (the JSON API's base URL), authenticated with the tokens of `credentials` when given;
    /// each request (the token's included) must end within `timeout`.
    public init(endpoint: URL = GCSClient.defaultEndpoint, credentials: GoogleCredentials?, timeout: Duration) {
        self.endpoint = endpoint
        self.timeout = timeout
        let http = StoreHTTPClient(store: "GCS")
        self.http = http
        self.credentials = credentials
        tokens = credentials.map {
            $0.tokens(scope: Self.scope, http: http, timeout: timeout)
        }
    }

    /// Asks the credentials for a token within `timeout`: `true` when one came; else the client's requests are
    /// anonymous from now on, as without credentials. `true` without credentials.
    public func probeCredentials(timeout: Duration = .seconds(2)) async -> Bool {
        guard let credentials else { return true }
        do {
            _ = try await credentials.token(scope: Self.scope, http: http, timeout: timeout)
            return true
        } catch {
            anonymous.withLockedValue { $0 = true }
            return false
        }
    }

    public func object(
        bucket: String, key: String, query: String?, maxSize: Int
    ) async throws(WebImageError) -> S3Object? {
        var url = endpoint.absoluteString
        if !url.hasSuffix("/") { url += "/" }
        url += "b/" + StoreHTTPClient.escape(bucket) + "/o/" + StoreHTTPClient.escape(key) + "?alt=media"
        if let query, let generation = Int64(query), generation > 0 { url += "&generation=\(generation)" }
        var headers: [(String, String)] = []
        if let tokens, !anonymous.withLockedValue({ $0 }) {
            headers.append(("Authorization", "Bearer " + (try await tokens.current())))
        }
        let response = try await http.send(
            .GET, url, headers: headers, timeout: timeout, maxSize: maxSize, operation: "GET \(bucket)/\(key)")
        if response.status == 401, let tokens { await tokens.invalidate() }
        if response.status == 404 { return nil }
        guard (200..<300).contains(response.status) else {
            throw WebImageError(
                .badStatus, "GCS GET \(bucket)/\(key) answered \(response.status)", httpStatus: response.status)
        }
        let lastModified = response.headers.first(name: "last-modified")
        return S3Object(
            data: response.body, contentType: response.headers.first(name: "content-type"),
            etag: Self.etag(
                hash: response.headers[canonicalForm: "x-goog-hash"].map(String.init), modified: lastModified),
            lastModified: lastModified, cacheControl: response.headers.first(name: "cache-control"))
    }

    public func shutdown() async throws { try await http.shutdown() }

    /// imgproxy's `ETag` of a GCS object: its CRC32C (from `x-goog-hash: crc32c=…`) and its modification time in
    /// nanoseconds since 1970, both little-endian, in hexadecimal; `nil` without a modification time.
    static func etag(hash: [String], modified: String?) -> String? {
        guard let modified, let date = imfDate(modified) else { return nil }
        var crc: UInt32 = 0
        for field in hash where field.hasPrefix("crc32c=") {
            if let bytes = Data(base64Encoded: String(field.dropFirst("crc32c=".count))), bytes.count == 4 {
                crc = bytes.reduce(0) { $0 << 8 | UInt32($1) }
            }
        }
        let nanoseconds = UInt64(bitPattern: Int64(date.timeIntervalSince1970) &* 1_000_000_000)
        var bytes = withUnsafeBytes(of: crc.littleEndian) { Array($0) }
        bytes += withUnsafeBytes(of: nanoseconds.littleEndian) { Array($0) }
        return bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// The date of an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), or `nil`.
    static func imfDate(_ text: String) -> Date? {
        let words = text.split(separator: " ")
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard words.count == 6, words[5] == "GMT", let day = Int(words[1]), let year = Int(words[3]),
            let month = months.firstIndex(of: String(words[2]))
        else { return nil }
        let clock = words[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3, (1...31).contains(day), (1970...9999).contains(year) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar.date(
            from: DateComponents(
                year: year, month: month + 1, day: day, hour: clock[0], minute: clock[1], second: clock[2]))
    }
}
