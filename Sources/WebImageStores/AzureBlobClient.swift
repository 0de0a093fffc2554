import Foundation
import NIOConcurrencyHelpers
import WebImage

/// Reads Azure Blob Storage blobs (`GET ENDPOINT/CONTAINER/BLOB`), as imgproxy's `IMGPROXY_USE_ABS` does: signed
/// with the account key (``AzureSharedKey``, `x-ms-date`, `x-ms-version`) when there is one, else with a Microsoft
/// Entra ID token (`Authorization: Bearer`) of ``AzureCredentials`` (azidentity's default chain), else anonymous
/// (public containers). The blob's `ETag`, `Last-Modified`, `Content-Type` and `Cache-Control` are the store's. A
/// missing blob or container is `nil`; another answer than 2xx a `.badStatus` `WebImageError` with the store's status.
public final class AzureBlobClient: ObjectStoreReading {
    /// The REST API version asked for.
    static let version = "2023-11-03"

    /// The account's blob endpoint (`https://ACCOUNT.blob.core.windows.net`).
    public let endpoint: URL
    /// Where the tokens come from, when requests carry tokens.
    public let credentials: AzureCredentials?
    private let signer: AzureSharedKey?
    private let timeout: Duration
    private let http: StoreHTTPClient
    private let tokens: AccessTokenCache?
    /// Set when IMDS gave no token at start (``probeCredentials(timeout:)``): requests are anonymous.
    private let anonymous = NIOLockedValueBox(false)

    /// A client of `endpoint`, signing with `signer` when given; each request must end within `timeout`.
    public init(endpoint: URL, signer: AzureSharedKey?, timeout: Duration) {
        self.endpoint = endpoint
        self.signer = signer
        self.timeout = timeout
        http = StoreHTTPClient(store: "Azure Blob Storage")
        credentials = nil
        tokens = nil
    }

    /// A client of `endpoint` whose requests carry the tokens of `credentials`; each request (the token's included)
    /// must end within `timeout`.
    public init(endpoint: URL, credentials: AzureCredentials, timeout: Duration) {
        self.endpoint = endpoint
        signer = nil
        self.timeout = timeout
        let http = StoreHTTPClient(store: "Azure Blob Storage")
        self.http = http
        self.credentials = credentials
        tokens = credentials.tokens(http: http, timeout: timeout)
    }

    /// Asks the credentials for a token within `timeout` (azidentity probes IMDS for a second): `true` when one
    /// came; else the client's requests are anonymous from now on, as without credentials. `true` without
    /// credentials.
    public func probeCredentials(timeout: Duration = .seconds(2)) async -> Bool {
        guard let credentials else { return true }
        do {
            _ = try await credentials.token(http: http, timeout: timeout)
            return true
        } catch {
            anonymous.withLockedValue { $0 = true }
            return false
        }
    }

    /// The default endpoint of `account`: `https://ACCOUNT.blob.core.windows.net`.
    public static func defaultEndpoint(account: String) -> URL? {
        URL(string: "https://\(account).blob.core.windows.net")
    }

    public func object(
        bucket: String, key: String, query: String?, maxSize: Int
    ) async throws(WebImageError) -> S3Object? {
        var base = endpoint.path
        while base.hasSuffix("/") { base.removeLast() }
        let path =
            base + "/" + StoreHTTPClient.escape(bucket) + "/"
            + key.split(separator: "/", omittingEmptySubsequences: false)
            .map { StoreHTTPClient.escape(String($0)) }.joined(separator: "/")
        var origin = (endpoint.scheme ?? "https") + "://" + (endpoint.host ?? "")
        if let port = endpoint.port { origin += ":\(port)" }
        var headers = [("x-ms-date", Self.httpDate(Date())), ("x-ms-version", Self.version)]
        var bearer: AccessTokenCache?
        if let signer {
            headers.append(
                ("Authorization", signer.authorization(method: "GET", path: path, query: [], headers: headers)))
        } else if let tokens, !anonymous.withLockedValue({ $0 }) {
            headers.append(("Authorization", "Bearer " + (try await tokens.current())))
            bearer = tokens
        }
        let response = try await http.send(
            .GET, origin + path, headers: headers, timeout: timeout, maxSize: maxSize,
            operation: "GET \(bucket)/\(key)")
        if response.status == 401, let bearer { await bearer.invalidate() }
        if response.status == 404 { return nil }
        guard (200..<300).contains(response.status) else {
            let code = response.headers.first(name: "x-ms-error-code").map { " \($0.prefix(64))" } ?? ""
            throw WebImageError(
                .badStatus, "Azure Blob Storage GET \(bucket)/\(key) answered \(response.status)\(code)",
                httpStatus: response.status)
        }
        return S3Object(
            data: response.body, contentType: response.headers.first(name: "content-type"),
            etag: response.headers.first(name: "etag"), lastModified: response.headers.first(name: "last-modified"),
            cacheControl: response.headers.first(name: "cache-control"))
    }

    public func shutdown() async throws { try await http.shutdown() }

    /// `date` as an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`).
    static func httpDate(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return "\(days[((parts.weekday ?? 1) - 1) % 7]), \(two(parts.day)) \(months[((parts.month ?? 1) - 1) % 12]) "
            + "\(parts.year ?? 1970) \(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) GMT"
    }
}
