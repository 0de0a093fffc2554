import Foundation

/// The HTTP rows of ``Settings``: the `Server` header, the health check and the validators, read from imgproxy's
/// `IMGPROXY_SERVER_NAME`, `IMGPROXY_HEALTH_CHECK_MESSAGE`, `IMGPROXY_HEALTH_CHECK_PATH`, `IMGPROXY_USE_ETAG`,
/// `IMGPROXY_ETAG_BUSTER`, `IMGPROXY_USE_LAST_MODIFIED`, `IMGPROXY_LAST_MODIFIED_BUSTER` (an RFC 3339 time) and
/// `IMGPROXY_SET_CANONICAL_HEADER`, `IMGPROXY_ENABLE_DEBUG_HEADERS`, `IMGPROXY_ENABLE_CLIENT_HINTS` and
/// `IMGPROXY_CACHE_CONTROL_PASSTHROUGH`.
extension Settings {
    static let serverName = Setting<String>("server-name", .text, imgproxy: ["IMGPROXY_SERVER_NAME"])
    static let healthCheckMessage = Setting<String>(
        "health-check-message", .text, imgproxy: ["IMGPROXY_HEALTH_CHECK_MESSAGE"])
    static let healthCheckPath = Setting<String>("health-check-path", .text, imgproxy: ["IMGPROXY_HEALTH_CHECK_PATH"])
    static let useETag = Setting<Bool>("use-etag", .boolean, imgproxy: ["IMGPROXY_USE_ETAG"])
    static let etagBuster = Setting<String>("etag-buster", .text, imgproxy: ["IMGPROXY_ETAG_BUSTER"])
    static let useLastModified = Setting<Bool>(
        "use-last-modified", .boolean, imgproxy: ["IMGPROXY_USE_LAST_MODIFIED"])
    static let lastModifiedBuster = Setting<Date>(
        "last-modified-buster", .rfc3339, imgproxy: ["IMGPROXY_LAST_MODIFIED_BUSTER"])
    static let setCanonicalHeader = Setting<Bool>(
        "set-canonical-header", .boolean, imgproxy: ["IMGPROXY_SET_CANONICAL_HEADER"])
    static let enableDebugHeaders = Setting<Bool>(
        "enable-debug-headers", .boolean, imgproxy: ["IMGPROXY_ENABLE_DEBUG_HEADERS"])
    static let enableClientHints = Setting<Bool>(
        "enable-client-hints", .boolean, imgproxy: ["IMGPROXY_ENABLE_CLIENT_HINTS"])
    static let cacheControlPassthrough = Setting<Bool>(
        "cache-control-passthrough", .boolean, imgproxy: ["IMGPROXY_CACHE_CONTROL_PASSTHROUGH"])

    /// The HTTP settings, for ``all``.
    static let http: [any SettingVariables] = [
        serverName, healthCheckMessage, healthCheckPath, useETag, etagBuster, useLastModified, lastModifiedBuster,
        setCanonicalHeader, enableDebugHeaders, enableClientHints, cacheControlPassthrough,
    ]
}

extension ValueParser<Date> {
    /// An RFC 3339 time (`2024-05-01T12:00:00Z`, fractions of a second and offsets allowed), as Go's
    /// `time.Parse(time.RFC3339, ...)` reads imgproxy's date settings.
    static var rfc3339: Self {
        Self(expected: "an RFC 3339 time such as 2024-05-01T12:00:00Z") { text in
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            let plain = ISO8601DateFormatter()
            plain.formatOptions = [.withInternetDateTime]
            if let date = plain.date(from: trimmed) { return date }
            let fractional = ISO8601DateFormatter()
            fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return fractional.date(from: trimmed)
        }
    }
}
