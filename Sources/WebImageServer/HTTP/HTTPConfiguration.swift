import Foundation

/// How the server speaks HTTP beyond the images themselves, as imgproxy 4 does: the `Server` header, the health check,
/// the validators (`ETag`, `Last-Modified`) and the other response headers imgproxy's settings switch on.
public struct HTTPConfiguration: Sendable {
    /// The `Server` header of every response (imgproxy's `IMGPROXY_SERVER_NAME`). Default `imgproxy`, so monitors
    /// and log parsers written for imgproxy keep working.
    public var serverName = "imgproxy"
    /// The body of a healthy `/health` answer (imgproxy's `IMGPROXY_HEALTH_CHECK_MESSAGE`). Default
    /// `imgproxy is running`.
    public var healthCheckMessage = "imgproxy is running"
    /// A second path answering as `/health` (imgproxy's `IMGPROXY_HEALTH_CHECK_PATH`), under the path prefix;
    /// empty (the default) adds none.
    public var healthCheckPath = ""
    /// Send the origin's `ETag` and pass the client's `If-None-Match` on (imgproxy's `IMGPROXY_USE_ETAG`). Default on.
    public var usesETag = true
    /// When not empty, every `ETag` is `"BUSTER/base64url(origin's ETag)"` and an `If-None-Match` without the buster
    /// validates nothing (imgproxy's `IMGPROXY_ETAG_BUSTER`): change it when a configuration change alters results.
    public var etagBuster = ""
    /// Send the origin's `Last-Modified` and pass the client's `If-Modified-Since` on (imgproxy's
    /// `IMGPROXY_USE_LAST_MODIFIED`). Default on.
    public var usesLastModified = true
    /// Results are taken as modified at least at this time (imgproxy's `IMGPROXY_LAST_MODIFIED_BUSTER`): an older
    /// `Last-Modified` is sent as this time, and an `If-Modified-Since` not after it validates nothing. `nil` (the
    /// default) busts nothing.
    public var lastModifiedBuster: Date?
    /// Answer images of `http(s)` sources with `Link: <SOURCE>; rel="canonical"` (imgproxy's
    /// `IMGPROXY_SET_CANONICAL_HEADER`), so search engines credit the source. Default off.
    public var setsCanonicalHeader = false
    /// Answer images with imgproxy's debug headers (`IMGPROXY_ENABLE_DEBUG_HEADERS`): `X-Origin-Width`,
    /// `X-Origin-Height`, `X-Origin-Content-Length` (the source's pixels and bytes), `X-Result-Width` and
    /// `X-Result-Height`; results cached while it was off are made again. Default off.
    public var sendsDebugHeaders = false
    /// Take the default `dpr` and `width` from the client hints `Sec-CH-DPR` (or `DPR`) and `Sec-CH-Width` (or
    /// `Width`), and name them in `Vary` (imgproxy's `IMGPROXY_ENABLE_CLIENT_HINTS`, ``ClientHints``). Default off.
    public var enablesClientHints = false
    /// Answer with the origin's `Cache-Control` and `Expires` when it sent either, instead of the server's TTL
    /// (imgproxy's `IMGPROXY_CACHE_CONTROL_PASSTHROUGH`): kept with the source and with each result in every tier.
    /// Default off.
    public var passesCacheControl = false

    /// The defaults: imgproxy 4's.
    public init() {}

    /// Throws for a server name or health message that cannot be a header or body line, or a health path that is not
    /// a path.
    func validate() throws(ImageServerConfigurationError) {
        guard Self.isFieldValue(serverName), serverName.utf8.count <= 256 else {
            throw ImageServerConfigurationError("server-name", "must be printable text of at most 256 bytes")
        }
        guard healthCheckMessage.utf8.count <= 4096 else {
            throw ImageServerConfigurationError("health-check-message", "must be at most 4096 bytes")
        }
        let isPath =
            healthCheckPath.isEmpty
            || (healthCheckPath.hasPrefix("/") && healthCheckPath.count > 1 && healthCheckPath.utf8.count <= 1024
                && !healthCheckPath.contains { "?#*:".contains($0) || $0.isWhitespace || !$0.isASCII })
        guard isPath else {
            throw ImageServerConfigurationError("health-check-path", "must be empty or an absolute path such as /ping")
        }
        guard etagBuster.utf8.count <= 256, Self.isFieldValue(etagBuster) || etagBuster.isEmpty,
            !etagBuster.contains("\"")
        else {
            throw ImageServerConfigurationError(
                "etag-buster", "must be printable text without quotes, at most 256 bytes")
        }
    }

    /// Whether `text` is a non-empty header value: visible ASCII and spaces, not starting or ending with a space.
    static func isFieldValue(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (0x20...0x7E).contains($0) } && text.first != " " && text.last != " "
    }
}
